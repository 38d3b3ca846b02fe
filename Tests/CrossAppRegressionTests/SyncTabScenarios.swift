import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import TerminalUI
import Testing
import Wire

/// The Sync tab as a person reads it: column headers, each change named by what it is about
/// (the post's author and first words), its state, tries and next try; `r` sends a waiting
/// change now.
@Suite @MainActor struct SyncTabScenarios {
    @Test(arguments: ShippedApp.withHome, [80, 50])
    func theAttemptsLog_hasColumnHeadings_andItsRowsFitTheScreen(app: ShippedApp, width: Int) async throws {
        // Given two likes tried on a flaky network (a retry each, with a reason)
        let run = await HeadlessHarness.run(
            app.definition,
            script: "wait\nnetwork flaky\nkey l\nkey j\nkey l\nwait\nkey \(app.syncKey)\nwait\nframe\n",
            directories: try TestDirectories.make(), width: width, height: 30)
        #expect(run.status == 0, "\(run.errors)")
        let rows = lines(run.lastFrame)
        let title = try #require(
            rows.firstIndex { $0.contains("Attempts (newest first)") }, "\(run.lastFrame)")

        // Then the log has a heading naming its columns, and each attempt's row is whole: within
        // the screen, nothing cut, the status under its heading
        let heading = rows[title + 1]
        let expected =
            width >= 80
            ? ["time", "kind", "try", "outcome", "http", "problem", "next"]
            : ["kind", "try", "outcome", "http", "next"]
        for column in expected {
            #expect(heading.contains(column), "\(app.id) at \(width): \(heading)")
        }
        let attempts = rows[(title + 2)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(attempts.count >= 2, "\(run.lastFrame)")
        for row in attempts {
            #expect(!row.contains("…"), "\(app.id) at \(width), cut: \(row)")
            #expect(row.count <= width, "\(row)")
        }
        if width >= 80, let row = attempts.first {
            let at = try #require(heading.range(of: "http")).lowerBound.utf16Offset(in: heading)
            let status = row.dropFirst(at).prefix(3)
            #expect(["503", "-  ", "504", "500"].contains(String(status)), "\(heading)\n\(row)")
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func aWaitingLike_isNamedByItsPost_withStateTriesAndNextTry(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 100)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let post = try #require(feed.postList.selectedItem?.media)
        session.shell?.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        _ = session.shell?.handle(.character("l"))
        await session.settle()
        session.shell?.openTab(.mutations)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)

        let lines = frame.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.contains("change") && $0.contains("state") }, "\(frame)")
        #expect(header.contains("tries") && header.contains("next try"), "header: \(header)")
        let row = try #require(lines.first { $0.contains("like ·") }, "\(app.id)'s Sync tab:\n\(frame)")
        #expect(row.contains("like · @\(post.author.handle) · \""), "row: \(row)")
        let firstWord = try #require(post.text.split(separator: " ").first)
        #expect(row.contains("\"" + firstWord), "the post's first words: \(row)")
        #expect(
            !row.contains(" m\(post.id.rawValue.dropFirst())") && !row.contains(post.id.rawValue + " "),
            "no ids: \(row)")
        #expect(row.contains("waiting"), "state: \(row)")
        #expect(row.range(of: #"in \d+s"#, options: .regularExpression) != nil, "next try: \(row)")
        #expect(
            frame.contains("no connection: it is sent when the network is back"), "why it waits:\n\(frame)")
        #expect(!frame.contains("/v1/") && !frame.contains("fault profile"), "no HTTP internals:\n\(frame)")

        // `r` sends it now: back online, the like goes at once, without waiting for the backoff.
        session.shell?.context.faultControl?.setFaultProfile(.perfect)
        _ = session.shell?.handle(.character("r"))
        await session.settle()
        let manager = try #require(session.shell?.context.manager)
        #expect(manager.pending.isEmpty, "\(app.id): r sent the waiting like now")
        _ = clock
        await session.stop()
    }

    /// A change to the viewer's own new post is named like any other ("like · @ada · "…""),
    /// not "a post": the post is known from where the person acted on it.
    @Test(arguments: ShippedApp.withHome)
    func aLikeOfTheViewersOwnNewPost_isNamedByThePost(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: 100)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.compose)
        if app.requiresPhoto { try TestPhotos.attachSample(in: shell) }
        for character in "Fresh bread this morning" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        shell.openTab(.home)
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        try #require(feed.postList.selectedItem?.media.text == "Fresh bread this morning")

        // When the person likes it offline, and opens Sync
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        _ = shell.handle(.character("l"))
        await session.settle()
        shell.openTab(.mutations)
        await session.settle()

        // Then the like is named by the post
        let frame = HeadlessHarness.frame(of: session)
        #expect(frame.contains("like · @ada · \"Fresh bread"), "\(app.id):\n\(frame)")
        #expect(!frame.contains("like · a post"), "\(app.id):\n\(frame)")
    }

    /// A like the server refuses is taken back on the post, and the post says so: without the
    /// mark it would look as if the key had done nothing. The mark stays across a restart, and
    /// goes once the change is discarded in Sync; the post under it stays right under it.
    @Test(arguments: ShippedApp.withHome)
    func aRefusedLike_marksItsPost_untilItIsDiscardedInSync(app: ShippedApp) async throws {
        // Given Home, its first post selected and the one under it (on a screen tall enough for
        // two of any app's posts)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 60)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let post = try #require(feed.postList.selectedItem)
        let before = feedEntries(HeadlessHarness.frame(of: session))
        try #require(before.count > 1, "\(app.id): two posts on screen")
        let neighbour = before[1][0]

        // When the server refuses the like
        let transport = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport)
        transport.injectFaults([.serverError(status: 403)])
        _ = shell.handle(.character("l"))
        await session.settle()

        // Then the post is not liked, says the like was not sent and where to see it, and the
        // next post follows it
        let sync = try #require(shell.tabs.first { $0.destination == .mutations })
        let mark = "✕ like not sent · details in \(sync.title)"
        func expectMarked(_ frame: String, _ when: String) {
            let entries = feedEntries(frame)
            guard entries.count > 1 else {
                Issue.record("\(app.id) \(when): two posts on screen:\n\(frame)")
                return
            }
            let first = entries[0].joined(separator: " ")
            #expect(first.contains(mark), "\(app.id) \(when):\n\(frame)")
            #expect(counts(in: entries[0])?.liked == post.facts.viewerLiked, "\(app.id) \(when):\n\(frame)")
            #expect(entries[1][0] == neighbour, "\(app.id) \(when): the next post right under it:\n\(frame)")
        }
        expectMarked(HeadlessHarness.frame(of: session), "after the refusal")
        #expect(feed.items.filter { !$0.row.notSent.isEmpty }.map(\.id) == [post.id])

        // And so after a restart
        try await session.restart()
        let restarted = try #require(session.shell)
        restarted.openTab(.home)
        await session.settle()
        expectMarked(HeadlessHarness.frame(of: session), "after a restart")

        // When the person likes it again and this one goes through, the post is liked and the
        // old refusal no longer marks it (it waits in Sync, to discard)
        if !post.facts.viewerLiked {
            _ = restarted.handle(.character("l"))
            await session.settle()
            let liked = feedEntries(HeadlessHarness.frame(of: session))
            #expect(counts(in: liked.first ?? [])?.liked == true, "\(app.id): \(liked.first ?? [])")
            #expect(!(liked.first ?? []).joined().contains("not sent"), "\(app.id): \(liked.first ?? [])")
        }

        // When the change is discarded in Sync (x, then x again)
        restarted.openTab(.mutations)
        await session.settle()
        _ = restarted.handle(.character("x"))
        await session.settle()
        _ = restarted.handle(.character("x"))
        await session.settle()
        restarted.openTab(.home)
        await session.settle()

        // Then the mark is gone, and the post is as the server has it
        let after = HeadlessHarness.frame(of: session)
        #expect(!after.contains("not sent"), "\(app.id):\n\(after)")
        #expect(feedEntries(after).dropFirst().first?.first == neighbour, "\(app.id):\n\(after)")
    }
}
