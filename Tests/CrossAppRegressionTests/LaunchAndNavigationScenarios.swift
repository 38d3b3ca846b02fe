import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import FeedCaching
import Foundation
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Testing

/// Launching, the first frame, paging through the whole feed, opening a thread and coming back.
@Suite @MainActor struct LaunchAndNavigationScenarios {
    @Test(arguments: ShippedApp.withHome)
    func launch_showsTheFirstFrameWithTheAppsOwnChrome(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nframe\n", directories: try TestDirectories.make())

        #expect(run.status == 0)
        let frame = run.lastFrame
        let rows = lines(frame)
        #expect(rows.count == 24)
        #expect(rows[0].hasPrefix(app.titlePrefix + " · Home"))
        #expect(rows[0].hasSuffix("@ada"))
        #expect(rows[23].hasPrefix("[1 ⌂ Home]"))
        #expect(rows.contains { $0.hasPrefix("▌") }, "the first post is selected")
        GoldenFrames.check(frame, app: app.id, name: "home", directory: goldenDirectory)
    }

    @Test(arguments: ShippedApp.withHome)
    func aWarmLaunch_drawsTheCachedHomeInItsFirstFrame_withoutTheServer(app: ShippedApp) async throws {
        // Given Home drawn once (its first page and heights cached), then the server out of reach;
        // once at the launch's size, once after the terminal was made narrower
        for resize in ["", "resize 60 24\nwait\n"] {
            // When the app starts again on the same data and draws at once, before anything else runs
            let run = await HeadlessHarness.run(
                app.definition, script: "wait\n\(resize)frame\nnetwork offline\nrestart\nframe\n",
                directories: try TestDirectories.make())

            // Then that first frame is the cached Home: the same posts at the same rows, the first
            // one selected, and never the empty feed's "Nothing here yet" or a loading line
            try #require(run.frames.count == 2, "\(app.id): \(run.errors)")
            let before = lines(run.frames[0])
            let first = lines(run.frames[1])
            #expect(first[0].hasPrefix(app.titlePrefix + " · Home"), "\(first[0])")
            #expect(
                !first.contains { $0.contains("Nothing here yet") || $0.contains("Loading your feed") },
                "\(app.id): the first frame of a warm launch:\n\(run.frames[1])")
            #expect(
                Array(first[2..<21]) == Array(before[2..<21]),
                "\(app.id) \(resize): the first frame shows the cached posts where they were:\n\(run.frames[1])\nbefore:\n\(run.frames[0])"
            )
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func theHomeFeed_asksTheServerForPagesOfTheAppsOwnSize(app: ShippedApp) async throws {
        // Given the app launched on a fresh copy of the seeded backend (far more than a page)
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let context = try #require(session.shell?.context)

        // When the first page has arrived, then it holds as many entries as the app's feed policy
        // asks for (apps ask for pages of different sizes)
        let pageSize = context.registry.with(.feedPolicy) { $0.pageSize }
        #expect(try context.feedCache?.count == pageSize, "\(app.id)'s first page")
    }

    @Test(arguments: ShippedApp.withHome)
    func feedPagination_reachesTheEndWithoutGapsOrRepeats(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)

        // Page down until nothing more arrives.
        var unchanged = 0
        var count = feed.items.count
        while unchanged < 3 {
            for _ in 0..<5 { _ = session.shell?.handle(.pageDown) }
            await session.settle()
            unchanged = feed.items.count == count ? unchanged + 1 : 0
            count = feed.items.count
        }

        // The whole feed, straight from the server, as this app's feed policy shows it.
        let context = try #require(session.shell?.context)
        var expected: [String] = []
        var cursor: String?
        repeat {
            let page = try await context.client.homeFeed(cursor: cursor, limit: 100)
            let policy = context.registry[.feedPolicy]
            expected += page.payload.entries.filter { policy.shows($0.media.kind) }.map(\.id.rawValue)
            cursor = page.payload.nextCursor
        } while cursor != nil
        let shown = feed.items.map(\.id)
        #expect(shown.count > 100)
        #expect(Set(shown).count == shown.count, "no entry is shown twice")
        #expect(shown == expected, "every entry, in the server's order")
        #expect(app.showsTextPosts == feed.items.contains { $0.media.kind == .text })
    }

    @Test(arguments: ShippedApp.withHome)
    func openingAThreadAndGoingBack_restoresTheSelection(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey j\nkey j\nframe\nkey enter\nwait\nframe\nkey esc\nframe\n",
            directories: try TestDirectories.make())

        try #require(run.frames.count == 3, "\(app.id): \(run.errors)")
        let before = run.frames[0]
        let thread = run.frames[1]
        let after = run.frames[2]
        #expect(lines(thread)[0].hasPrefix(app.titlePrefix + " · " + app.threadTitle))
        #expect(after == before, "back on the feed, the same post is selected at the same place")
        GoldenFrames.check(thread, app: app.id, name: "thread", directory: goldenDirectory)
    }
}
