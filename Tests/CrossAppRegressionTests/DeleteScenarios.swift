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

/// The viewer deletes their own post with `d`, pressed twice: it is gone at once from every list,
/// the posts below close up, and it stays gone after a restart and in the other app.
@Suite @MainActor struct DeleteScenarios {
    /// The status line of a frame (the line above the tabs).
    static func status(_ frame: String) -> String {
        let all = lines(frame)
        return all.count >= 2 ? String(all[all.count - 2]) : ""
    }

    /// Presses `key` and waits for what it started.
    static func press(_ key: Key, in session: AppSession) async {
        _ = session.shell?.handle(key)
        await session.settle()
    }

    /// Selects the item showing `text` in `list`, moving down from the top.
    static func select(_ text: String, in list: PostList, session: AppSession) async throws {
        list.selectFirst()
        let index = try #require(list.items.firstIndex { $0.media.text == text }, "\(text) is listed")
        for _ in 0..<index { await press(.character("j"), in: session) }
        #expect(list.selectedItem?.media.text == text)
    }

    /// Two photo posts of the viewer's (`below` older, then `doomed`), on a fresh backend.
    static func prepare(_ app: ShippedApp) async throws -> (TestDirectories, doomed: String, below: String) {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let below = "Older harbour photo, \(app.id)"
        let doomed = "Blurry harbour photo, \(app.id)"
        try await BackendFixtures.post(
            on: backend, as: "ada", text: below, attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.post(
            on: backend, as: "ada", text: doomed, attachmentsJSON: BackendFixtures.photoJSON)
        backend.close()
        return (directories, doomed, below)
    }

    @Test(arguments: ShippedApp.withHome)
    func deletingAnOwnPost_asksFirst_thenRemovesItEverywhere_andItStaysGone(app: ShippedApp) async throws {
        // Given two posts of the viewer's, on Home and on their profile
        let (directories, doomed, below) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        session.shell?.openTab(.profile)
        await session.settle()
        let profile = try #require(session.shell?.currentScreen as? ProfileScreen)
        let profileBefore = profile.items.map(\.media.text)
        session.shell?.openTab(.home)
        await session.settle()
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let homeBefore = feed.items.map(\.id)
        try await Self.select(doomed, in: feed.postList, session: session)
        let index = try #require(feed.postList.selectedIndex)
        let neighbour = try #require(feed.items.dropFirst(index + 1).first, "a post below it")

        // When the viewer presses d once
        await Self.press(.character("d"), in: session)
        let asked = HeadlessHarness.frame(of: session)

        // Then it asks, and nothing is deleted yet
        #expect(Self.status(asked).hasPrefix("press d again to delete this post"), "\(app.id):\n\(asked)")
        #expect(feed.items.map(\.id) == homeBefore)

        // When they press d again
        await Self.press(.character("d"), in: session)
        let home = HeadlessHarness.frame(of: session)

        // Then it is gone from Home at once; the post below takes its place, selected
        var expected = homeBefore
        expected.remove(at: index)
        #expect(feed.items.map(\.id) == expected, "\(app.id): one fewer, the rest in order")
        #expect(feed.items[index].id == neighbour.id, "the post below moves up into its place")
        #expect(feed.postList.selectedItem?.id == neighbour.id)
        #expect(!home.contains(doomed), "\(app.id):\n\(home)")

        // And from the profile, whose other posts close up in order (a page may pull in one more)
        session.shell?.openTab(.profile)
        await session.settle()
        let remaining = profileBefore.filter { $0 != doomed }
        #expect(remaining.count == profileBefore.count - 1)
        #expect(Array(profile.items.map(\.media.text).prefix(remaining.count)) == remaining, "\(app.id)")
        #expect(!profile.items.contains { $0.media.text == doomed })
        #expect(profile.items.first?.media.text == below, "the older post moves up to the top")

        // And the Sync tab has nothing waiting once the server has it
        await Self.press(.character(app.syncKey), in: session)
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("Changes: 0 pending, 0 failed"), "\(app.id):\n\(sync)")

        // And it stays gone after a restart
        try await session.restart()
        session.shell?.openTab(.home)
        await session.settle()
        let restarted = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(!restarted.items.contains { $0.media.text == doomed }, "\(app.id): gone after a restart")
        // (the first screenful comes from the cache, in the same order)
        #expect(!restarted.items.isEmpty)
        #expect(restarted.items.map(\.id) == Array(expected.prefix(restarted.items.count)))
        await session.stop()

        // And in the other app on the same backend
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        let (second, _) = try await HeadlessHarness.session(
            other.definition, directories: directories.sibling())
        second.shell?.openTab(.profile)
        await second.settle()
        let otherProfile = try #require(second.shell?.currentScreen as? ProfileScreen)
        #expect(otherProfile.items.map(\.media.text).contains(below))
        #expect(!otherProfile.items.contains { $0.media.text == doomed }, "\(other.id) no longer has it")
        await second.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func afterADeleteInTheMiddleOfHome_upGoesToThePostAbove_andDownToThePostBelow(app: ShippedApp)
        async throws
    {
        // Given the viewer's post on Home between a newer one of someone they follow and older ones
        let (directories, doomed, _) = try await Self.prepare(app)
        let backend = try directories.openBackend()
        let newer = "Ferry at dawn, \(app.id)"
        try await BackendFixtures.post(
            on: backend, as: "james", text: newer, attachmentsJSON: BackendFixtures.photoJSON)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        try await Self.select(doomed, in: feed.postList, session: session)
        let index = try #require(feed.postList.selectedIndex)
        try #require(index > 0, "\(app.id): a post above it")
        let above = feed.items[index - 1].id
        let below = try #require(feed.items.dropFirst(index + 1).first).id
        #expect(feed.items[index - 1].media.text == newer)

        // When it is deleted (d, d), then the person moves up, down and down again
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)
        #expect(feed.postList.selectedItem?.id == below, "\(app.id): the post below takes its place")
        await Self.press(.character("k"), in: session)
        let up = feed.postList.selectedItem?.id
        await Self.press(.character("j"), in: session)
        let back = feed.postList.selectedItem?.id
        await Self.press(.character("j"), in: session)

        // Then each key moves one post: up to the newer post, back to the one below the deleted
        // post, then past it
        #expect(up == above, "\(app.id): k after the delete selects the post above")
        #expect(back == below, "\(app.id): j comes back")
        #expect(feed.postList.selectedIndex == index + 1, "\(app.id): the next j moves on one post")
    }

    /// The count of posts on a profile line ("12 posts · 3 followers · 4 following").
    static func postCount(_ frame: String) -> Int? {
        for line in lines(frame) {
            guard let range = line.range(of: " posts · ") ?? line.range(of: " post · ") else { continue }
            let digits = line[..<range.lowerBound].reversed().prefix { $0.isNumber }
            return Int(String(digits.reversed()))
        }
        return nil
    }

    /// Deleting a post on one's own profile takes it off the profile's count at once, offline
    /// too, and the count stays right once the server has the delete and the profile is loaded
    /// again.
    @Test(arguments: ShippedApp.all)
    func deletingOnTheProfile_lowersItsPostCount_atOnce(app: ShippedApp) async throws {
        // Given the viewer's profile, with the network down
        let (directories, doomed, _) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        session.shell?.openTab(.profile)
        await session.settle()
        let profile = try #require(session.shell?.currentScreen as? ProfileScreen)
        let before = try #require(Self.postCount(HeadlessHarness.frame(of: session)))
        let network = try #require(session.shell?.context.faultControl)
        network.setFaultProfile(try #require(FaultProfile.named("offline")))
        session.networkDidChange()

        // When a post is deleted there
        try await Self.select(doomed, in: profile.postList, session: session)
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)

        // Then the count drops by one at once
        let deleted = HeadlessHarness.frame(of: session)
        #expect(!profile.items.contains { $0.media.text == doomed })
        #expect(Self.postCount(deleted) == before - 1, "\(app.id):\n\(deleted)")

        // And once the server has it and the profile is loaded again, it is still one fewer
        network.setFaultProfile(try #require(FaultProfile.named("perfect")))
        session.networkDidChange()
        await session.settle()
        session.shell?.openTab(.home)
        session.shell?.openTab(.profile)
        await session.settle()
        let reloaded = HeadlessHarness.frame(of: session)
        #expect(Self.postCount(reloaded) == before - 1, "\(app.id):\n\(reloaded)")
    }

    @Test(arguments: ShippedApp.withHome)
    func deleteKey_onSomeoneElsesPost_saysOnlyTheAuthorCan_andAnotherKeyCancelsTheConfirm(app: ShippedApp)
        async throws
    {
        let (directories, doomed, _) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let before = feed.items.map(\.id)

        // Given someone else's post selected, d says why it cannot be deleted
        let others = try #require(feed.items.first { $0.media.author.handle != "ada" })
        try await Self.select(others.media.text, in: feed.postList, session: session)
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)
        let refused = HeadlessHarness.frame(of: session)
        #expect(
            Self.status(refused).hasPrefix("only @\(others.media.author.handle) can delete this post"),
            "\(app.id):\n\(refused)")
        #expect(feed.items.map(\.id) == before)

        // When d on the viewer's own post is followed by another key, then d once more
        try await Self.select(doomed, in: feed.postList, session: session)
        await Self.press(.character("d"), in: session)
        await Self.press(.character("?"), in: session)
        await Self.press(.escape, in: session)
        await Self.press(.character("d"), in: session)
        let again = HeadlessHarness.frame(of: session)

        // Then it asks again rather than deleting
        #expect(Self.status(again).hasPrefix("press d again to delete this post"), "\(app.id):\n\(again)")
        #expect(feed.items.map(\.id) == before)
        #expect(session.shell?.context.manager.pending.isEmpty == true)
    }

    @Test(arguments: ShippedApp.withHome)
    func aDeleteOfAPostTheOtherAppDeletedFirst_isDone_andThePostStaysGone(app: ShippedApp) async throws {
        // Given the viewer's post on Home in this app
        let (directories, doomed, below) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, deletesBehindTheApp: true)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let before = feed.items.map(\.id)
        try await Self.select(doomed, in: feed.postList, session: session)
        let index = try #require(feed.postList.selectedIndex)

        // And the other app, on the same backend, deletes it first (from the viewer's profile)
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        let (second, _) = try await HeadlessHarness.session(
            other.definition, directories: directories.sibling())
        second.shell?.openTab(.profile)
        await second.settle()
        let otherProfile = try #require(second.shell?.currentScreen as? ProfileScreen)
        try await Self.select(doomed, in: otherProfile.postList, session: second)
        await Self.press(.character("d"), in: second)
        await Self.press(.character("d"), in: second)
        #expect(!otherProfile.items.contains { $0.media.text == doomed }, "\(other.id) deleted it")
        #expect(
            second.shell?.context.manager.pending.isEmpty == true, "the server has \(other.id)'s delete")
        await second.stop()

        // When the viewer deletes it here too (the server answers that it is gone)
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)

        // Then it is gone here, and stays gone: the post below took its place, and nothing failed
        var expected = before
        expected.remove(at: index)
        #expect(feed.items.map(\.id) == expected, "\(app.id): the post does not come back")
        #expect(feed.items.dropFirst(index).first?.media.text == below)
        let home = HeadlessHarness.frame(of: session)
        #expect(!home.contains(doomed), "\(app.id):\n\(home)")
        await Self.press(.character(app.syncKey), in: session)
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("Changes: 0 pending, 0 failed"), "\(app.id):\n\(sync)")
        #expect(!sync.contains("✕ delete"), "not listed as a failure:\n\(sync)")

        // And after a refresh
        session.shell?.openTab(.home)
        await Self.press(.character("g"), in: session)
        await Self.press(.character("k"), in: session)
        #expect(!feed.items.contains { $0.media.text == doomed }, "\(app.id): gone after a refresh")
    }

    /// A change that failed is not only in Sync: the Sync tab carries a badge with how many
    /// failed, wherever the person is; `x` in Sync asks once before discarding it, and the badge
    /// goes with it.
    @Test(arguments: ShippedApp.withHome)
    func aFailedChange_badgesTheSyncTab_andXAsksBeforeDiscarding(app: ShippedApp) async throws {
        // Given a like that failed (its post was deleted on the server behind the app)
        let (directories, doomed, _) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, deletesBehindTheApp: true)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        try await Self.select(doomed, in: feed.postList, session: session)
        let id = try #require(feed.postList.selectedItem?.media.id.rawValue)
        let backend = try directories.openBackend()
        try await BackendFixtures.delete(on: backend, as: "ada", id)
        backend.close()
        await Self.press(.character("l"), in: session)

        // Then Home's tab bar badges the Sync tab with one failure
        let sync = try #require(shell.tabs.firstIndex { $0.destination == .mutations })
        let tab = shell.tabs[sync]
        let badged = "\(sync + 1) \(tab.glyph) \(tab.title) ✕1"
        let home = HeadlessHarness.frame(of: session)
        #expect(lines(home).last?.contains(badged) == true, "\(app.id):\n\(home)")

        // When x is pressed once in Sync, nothing is discarded yet and it asks
        await Self.press(.character(Character("\(sync + 1)")), in: session)
        await Self.press(.character("x"), in: session)
        let asked = HeadlessHarness.frame(of: session)
        #expect(asked.contains("Changes: 0 pending, 1 failed"), "\(app.id):\n\(asked)")
        #expect(Self.status(asked).hasPrefix("press x again to discard"), "\(app.id):\n\(asked)")

        // And another key cancels; x twice discards, and the badge goes
        await Self.press(.character("j"), in: session)
        await Self.press(.character("x"), in: session)
        #expect(HeadlessHarness.frame(of: session).contains("1 failed"), "j cancelled the first x")
        await Self.press(.character("x"), in: session)
        let discarded = HeadlessHarness.frame(of: session)
        #expect(discarded.contains("Changes: 0 pending, 0 failed"), "\(app.id):\n\(discarded)")
        #expect(lines(discarded).last?.contains("✕") == false, "\(app.id):\n\(discarded)")
    }

    @Test(arguments: ShippedApp.withHome)
    func aLikeOfAPostDeletedOnTheServer_fails_andSyncShowsTheServersAnswerInItsAttemptLine(app: ShippedApp)
        async throws
    {
        // Given the viewer's post on Home, selected, and then deleted on the server behind the app
        let (directories, doomed, _) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, deletesBehindTheApp: true)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        try await Self.select(doomed, in: feed.postList, session: session)
        let id = try #require(feed.postList.selectedItem?.media.id.rawValue)
        let backend = try directories.openBackend()
        try await BackendFixtures.delete(on: backend, as: "ada", id)
        backend.close()

        // When the viewer likes it, and looks at the Sync tab
        await Self.press(.character("l"), in: session)
        await Self.press(.character(app.syncKey), in: session)
        let sync = HeadlessHarness.frame(of: session)

        // Then the like failed once, and its attempt line gives the server's status, not a
        // made-up one: the line a person reads to learn what the server said
        #expect(sync.contains("Changes: 0 pending, 1 failed"), "\(app.id):\n\(sync)")
        let attempts = lines(sync).drop { !$0.contains("Attempts (newest first)") }.dropFirst()
            .filter { $0.contains("  like  ") }
        #expect(attempts.count == 1, "\(app.id): one attempt of the like:\n\(sync)")
        let columns = attempts.first.map { $0.split(separator: " ", omittingEmptySubsequences: true) } ?? []
        #expect(columns.count > 4 && columns[4] == "404", "\(app.id): status column of \(attempts):\n\(sync)")
    }

    @Test(arguments: ShippedApp.all)
    func deletingAnOwnReplyInAThread_closesTheRepliesUp(app: ShippedApp) async throws {
        // Given a post of grace's with three replies, the middle one the viewer's
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let root = try await BackendFixtures.post(
            on: backend, as: "grace", text: "Tide pools at dawn, \(app.id)",
            attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.reply(on: backend, as: "mary", to: root, text: "First to answer")
        let doomed = "Typo-ridden reply, \(app.id)"
        try await BackendFixtures.reply(on: backend, as: "ada", to: root, text: doomed)
        try await BackendFixtures.reply(on: backend, as: "mary", to: root, text: "Last to answer")
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let thread = ThreadScreen(
            context: shell.context, mediaID: MediaID(rawValue: root), width: 80, height: 20)
        shell.push(thread)
        await session.settle()
        let before = thread.items.map(\.media.text)
        #expect(before.count == 4, "the post and its three replies: \(before)")
        try await Self.select(doomed, in: thread.postList, session: session)
        let index = try #require(thread.postList.selectedIndex)

        // When the viewer presses d twice on their reply
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)
        let frame = HeadlessHarness.frame(of: session)

        // Then the thread shows the post and the other two replies, in order, the next one selected
        #expect(thread.items.map(\.media.text) == before.filter { $0 != doomed }, "\(app.id)")
        #expect(thread.items.map(\.media.text).dropFirst(index).first == before.dropFirst(index + 1).first)
        #expect(thread.postList.selectedItem?.media.text == before.dropFirst(index + 1).first)
        #expect(!frame.contains(doomed), "\(app.id):\n\(frame)")
        #expect(shell.context.manager.pending.isEmpty, "the server has the delete")
    }

    @Test(arguments: ShippedApp.withHome)
    func deletingTheThreadsOwnPost_closesTheThread_backToHomeWithoutIt(app: ShippedApp) async throws {
        // Given the viewer's post opened from Home (its thread, the post focused)
        let (directories, doomed, below) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let before = feed.items.map(\.id)
        try await Self.select(doomed, in: feed.postList, session: session)
        let index = try #require(feed.postList.selectedIndex)
        await Self.press(.enter, in: session)
        let thread = try #require(shell.currentScreen as? ThreadScreen)
        #expect(thread.postList.selectedItem?.media.text == doomed, "the thread's own post is selected")

        // When the viewer presses d twice there
        await Self.press(.character("d"), in: session)
        await Self.press(.character("d"), in: session)
        let frame = HeadlessHarness.frame(of: session)

        // Then the thread closes: Home is back, without the post, the one below it selected
        #expect(shell.currentScreen === feed, "\(app.id): back where the person came from:\n\(frame)")
        #expect(Self.status(frame) == "post deleted", "\(app.id) status: \(Self.status(frame))")
        var expected = before
        expected.remove(at: index)
        #expect(feed.items.map(\.id) == expected, "\(app.id): one fewer, the rest in order")
        #expect(feed.postList.selectedItem?.media.text == below, "the post below takes its place")
        #expect(!frame.contains(doomed), "\(app.id):\n\(frame)")
        #expect(shell.context.manager.pending.isEmpty, "the server has the delete")
    }

    @Test(arguments: ShippedApp.withHome)
    func deleteKey_onAPostNotYetOnTheServer_saysSo(app: ShippedApp) async throws {
        // Given a post written offline, waiting at the top of Home
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        shell.openTab(.compose)
        if shell.context.registry[.feedPolicy].shows(.text) == false
            || shell.context.registry[.composerPolicy].media == .required
        {
            try TestPhotos.attachSample(in: shell)
        }
        let text = "Written on the train, \(app.id)"
        for character in text { _ = shell.handle(.character(character)) }
        await Self.press(.enter, in: session)
        shell.openTab(.home)
        await session.settle()
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let before = feed.items.map(\.id)
        #expect(feed.postList.selectedItem?.media.text == text, "\(app.id): the new post is selected")

        // When the viewer presses d twice on it
        await Self.press(.character("d"), in: session)
        let first = HeadlessHarness.frame(of: session)
        await Self.press(.character("d"), in: session)

        // Then it says the post is not on the server yet, and nothing is deleted
        #expect(Self.status(first).hasPrefix("this post is not on the server yet"), "\(app.id):\n\(first)")
        #expect(feed.items.map(\.id) == before)
        #expect(shell.context.manager.pending.count == 1, "only the post waits, no delete")
    }
}
