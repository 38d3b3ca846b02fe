import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import TerminalUI
import Testing

/// Moving through a long list a screen at a time, jumping to either end, and knowing when the
/// feed has nothing more.
@Suite @MainActor struct FeedPagingScenarios {
    static let endMarker = "You're all caught up"

    /// Presses `key` and waits for what it started.
    static func press(_ key: Key, in session: AppSession) async {
        _ = session.shell?.handle(key)
        await session.settle()
    }

    @Test(arguments: ShippedApp.withHome)
    func pageDownAndUp_moveAScreenfulOfPostsKeepingTheSelectionVisible(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 60)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let view = feed.postList.view
        #expect(feed.postList.selectedIndex == 0)
        let firstScreen = view.visibleSections

        // When the person pages down
        await Self.press(.pageDown, in: session)

        // Then the selection is about a screen further: past the posts that were in view
        let paged = try #require(feed.postList.selectedIndex)
        #expect(paged > 1)
        #expect(paged >= firstScreen.upperBound - 1 && paged <= firstScreen.upperBound)
        #expect(view.visibleSections.contains(paged), "the selected post is in view")
        let frame = HeadlessHarness.frame(of: session)
        #expect(lines(frame).filter { $0.hasPrefix("▌") }.count > 1, "the selected post is drawn")

        // And page up comes back to the first post
        await Self.press(.pageUp, in: session)
        #expect(feed.postList.selectedIndex == 0)
        #expect(view.visibleSections.lowerBound == 0)
    }

    @Test(arguments: ShippedApp.withHome)
    func pageDownInATallPost_stillMovesOnAtLeastOnePost(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 12)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)

        for expected in 1...3 {
            await Self.press(.pageDown, in: session)
            let index = try #require(feed.postList.selectedIndex)
            #expect(index >= expected, "each page moves on")
            #expect(feed.postList.view.visibleSections.contains(index))
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func endAndHome_reachTheLastLoadedPostAndTheFirst(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let loaded = feed.items.count
        #expect(loaded > 3)

        // G selects the last loaded post at once, and loads more as the feed does near its end
        _ = session.shell?.handle(.character("G"))
        let last = try #require(feed.items.last)
        #expect(feed.postList.selectedIndex == loaded - 1)
        #expect(feed.postList.selectedItem?.id == last.id)
        await session.settle()
        #expect(feed.items.count > loaded, "more were loaded")
        #expect(feed.postList.selectedItem?.id == last.id, "the selection stays on it")
        #expect(feed.postList.view.visibleSections.contains(loaded - 1))

        // End goes on to the new last one
        _ = session.shell?.handle(.end)
        let lastNow = try #require(feed.postList.selectedIndex)
        #expect(lastNow == feed.items.count - 1)
        #expect(lastNow > loaded - 1)
        await session.settle()

        // g and home come back to the first
        await Self.press(.character("g"), in: session)
        #expect(feed.postList.selectedIndex == 0)
        #expect(feed.postList.view.visibleSections.lowerBound == 0)
        await Self.press(.end, in: session)
        await Self.press(.home, in: session)
        #expect(feed.postList.selectedIndex == 0)
    }

    @Test(arguments: ShippedApp.withHome)
    func theEndOfTheFeed_isMarkedOnceBelowTheLastPost(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(!HeadlessHarness.frame(of: session).contains(Self.endMarker), "not before the end")

        // When the person goes to the end until nothing more arrives
        var unchanged = 0
        var count = feed.items.count
        while unchanged < 3 {
            await Self.press(.character("G"), in: session)
            unchanged = feed.items.count == count ? unchanged + 1 : 0
            count = feed.items.count
        }
        #expect(count > 100)
        #expect(feed.postList.selectedIndex == count - 1)

        // Then the last post is selected, and the line under it says the feed ends, once
        let rows = lines(HeadlessHarness.frame(of: session))
        let markers = rows.indices.filter { rows[$0].contains(Self.endMarker) }
        #expect(markers.count == 1)
        let marker = try #require(markers.first)
        let lastSelectedLine = try #require(rows.lastIndex { $0.hasPrefix("▌") })
        #expect(marker > lastSelectedLine, "below the last post")
        #expect(
            rows[(lastSelectedLine + 1)..<marker].allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).isEmpty
            })
        #expect(rows[marker + 1].hasPrefix("j/k move"), "the list ends with it, the footer next")
    }

    @Test(arguments: ShippedApp.all)
    func threadAndProfile_takeTheSameEndKeys(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let profile = try await HeadlessHarness.openOwnProfile(in: session)
        #expect(profile.items.count > 2)

        // G selects the last post loaded (and loads more, as Home does near its end)
        let loaded = profile.items.count
        await Self.press(.character("G"), in: session)
        #expect(profile.postList.selectedIndex == loaded - 1)
        await Self.press(.pageUp, in: session)
        #expect((profile.postList.selectedIndex ?? 0) < profile.items.count - 1)
        await Self.press(.home, in: session)
        #expect(profile.postList.selectedIndex == 0)
        await Self.press(.pageDown, in: session)
        #expect((profile.postList.selectedIndex ?? 0) > 0)

        await Self.press(.enter, in: session)
        let thread = try #require(shell.currentScreen as? ThreadScreen)
        await Self.press(.end, in: session)
        #expect(thread.postList.selectedIndex == thread.items.count - 1)
        await Self.press(.character("g"), in: session)
        #expect(thread.postList.selectedIndex == 0)
    }

    @Test(arguments: ShippedApp.all)
    func aLongProfile_loadsMoreNearItsEnd_andSaysWhenItHasShownAll(app: ShippedApp) async throws {
        // Given the viewer (ada) has many more posts than one page
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        for number in 1...35 {
            try await BackendFixtures.post(
                on: backend, as: BackendSeed.firstHandle, text: "Harbour log \(number), \(app.id)",
                attachmentsJSON: BackendFixtures.photoJSON)
        }
        backend.close()
        // (30 lines: under the profile's header a photo post needs more than 24 to show whole)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30)
        defer { Task { await session.stop() } }
        let profile = try await HeadlessHarness.openOwnProfile(in: session)
        let firstPage = profile.items.count
        #expect(firstPage > 0)
        let endLine = "✓ That's all of @\(BackendSeed.firstHandle)'s posts"
        #expect(!HeadlessHarness.frame(of: session).contains(endLine), "not before the end")

        // When the person goes to the end until nothing more arrives
        var unchanged = 0
        var count = profile.items.count
        while unchanged < 3 {
            await Self.press(.character("G"), in: session)
            unchanged = profile.items.count == count ? unchanged + 1 : 0
            count = profile.items.count
        }

        // Then every post came, once each, newest first, the oldest last and selected
        #expect(count > firstPage, "\(app.id): more than the first page (\(firstPage))")
        #expect(Set(profile.items.map(\.id)).count == count, "no post twice")
        let times = profile.items.map(\.media.createdAt)
        #expect(times == times.sorted(by: >), "newest first")
        #expect(profile.items.filter { $0.media.text.hasPrefix("Harbour log ") }.count == 35)
        #expect(profile.postList.selectedIndex == count - 1)

        // And the line under the last post says that is all, once, the footer next
        let rows = lines(HeadlessHarness.frame(of: session))
        let markers = rows.indices.filter { rows[$0].contains(endLine) }
        #expect(markers.count == 1, "\(app.id):\n\(rows.joined(separator: "\n"))")
        let marker = try #require(markers.first)
        let lastSelectedLine = try #require(rows.lastIndex { $0.hasPrefix("▌") })
        #expect(marker > lastSelectedLine, "below the last post")
        #expect(
            rows[(lastSelectedLine + 1)..<marker].allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).isEmpty
            })
        #expect(rows[marker + 1].hasPrefix("j/k move"), "the list ends with it, the footer next")
    }
}
