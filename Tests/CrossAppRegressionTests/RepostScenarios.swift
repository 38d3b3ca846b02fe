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

/// `s` reposts a post and, pressed again, undoes the repost, exactly as `l` likes and unlikes:
/// the count moves by one at once, the post says the viewer reposted it, the footer says what `s`
/// does now, and the server, a restart and the other app all agree.
@Suite @MainActor struct RepostScenarios {
    /// Presses `key` and waits for what it started.
    static func press(_ key: Key, in session: AppSession) async {
        _ = session.shell?.handle(key)
        await session.settle()
    }

    /// A photo post of grace's (whom the viewer follows), the newest on Home, on a fresh backend.
    static func prepare(_ app: ShippedApp) async throws -> (TestDirectories, text: String) {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let text = "Compiler cache on the harbour wall, \(app.id)"
        try await BackendFixtures.post(
            on: backend, as: "grace", text: text, attachmentsJSON: BackendFixtures.photoJSON)
        backend.close()
        return (directories, text)
    }

    /// What `s` does now, as the footer says it ("repost", "undo repost"), or nil when the footer
    /// leaves `s` out.
    static func sInFooter(_ session: AppSession) -> String? {
        KeyHelpScenarios.footer(of: session).components(separatedBy: " · ").first { $0.hasPrefix("s ") }
            .map { String($0.dropFirst(2)) }
    }

    /// The texts of Home's posts, in order.
    static func homeTexts(_ session: AppSession) throws -> [String] {
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        return feed.items.map(\.media.text)
    }

    /// The first Home frame of a fresh session of `app` on `directories`: the counts of its
    /// selected (newest) post.
    static func countsSeen(by app: ShippedApp, on directories: TestDirectories) async throws -> Counts? {
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        return selectedCounts(HeadlessHarness.frame(of: session))
    }

    @Test(arguments: ShippedApp.withHome)
    func sRepostsThenUndoes_theCountGoesUpAndBack_andEveryoneAgrees(app: ShippedApp) async throws {
        // Given grace's new post, newest on Home and selected
        let (directories, text) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(feed.postList.selectedItem?.media.text == text, "\(app.id): grace's post is selected")
        let home = try Self.homeTexts(session)
        let first = HeadlessHarness.frame(of: session)
        let before = try #require(selectedCounts(first), "\(app.id):\n\(first)")
        #expect(!before.reposted, "not reposted yet:\n\(first)")
        #expect(Self.sInFooter(session) == "repost", "the footer says s reposts")

        // When the viewer presses s
        await Self.press(.character("s"), in: session)
        let reposted = HeadlessHarness.frame(of: session)

        // Then the count goes up by one and the post says the viewer reposted it, shown once
        var expected = before
        expected.reposts += 1
        expected.reposted = true
        #expect(selectedCounts(reposted) == expected, "\(app.id):\n\(reposted)")
        #expect(try Self.homeTexts(session) == home, "Home's posts and order are unchanged")
        #expect(try Self.homeTexts(session).filter { $0 == text }.count == 1, "the post is on Home once")
        #expect(DeleteScenarios.status(reposted) == "reposted @grace's post", "\(app.id):\n\(reposted)")
        #expect(session.shell?.context.manager.pending.isEmpty == true, "the server has it")
        #expect(Self.sInFooter(session) == nil, "the message stands in for the footer until a key")
        await Self.press(.character("j"), in: session)
        await Self.press(.character("k"), in: session)
        #expect(Self.sInFooter(session) == "undo repost", "s now undoes it")

        // And a refresh keeps it (the server's facts already count the repost: not twice)
        feed.refresh()
        await session.settle()
        #expect(selectedCounts(HeadlessHarness.frame(of: session)) == expected, "\(app.id): after a refresh")

        // And the other app on the same backend sees the repost
        let other = try #require(ShippedApp.withHome.first { $0.id != app.id })
        #expect(try await Self.countsSeen(by: other, on: directories.sibling()) == expected, "\(other.id)")

        // When the viewer presses s again
        await Self.press(.character("s"), in: session)
        let undone = HeadlessHarness.frame(of: session)

        // Then the count is back where it was and the post no longer says reposted
        #expect(selectedCounts(undone) == before, "\(app.id):\n\(undone)")
        #expect(try Self.homeTexts(session) == home, "Home's posts and order are unchanged")
        #expect(DeleteScenarios.status(undone) == "repost of @grace's post undone", "\(app.id):\n\(undone)")
        #expect(session.shell?.context.manager.pending.isEmpty == true, "the server has the undo")
        #expect(session.shell?.context.manager.failed.isEmpty == true)

        // And the next key clears the message, the footer saying s reposts again
        await Self.press(.character("j"), in: session)
        await Self.press(.character("k"), in: session)
        #expect(Self.sInFooter(session) == "repost", "\(app.id)")

        // And the Sync tab names both changes as a person would
        await Self.press(.character(app.syncKey), in: session)
        let sync = HeadlessHarness.frame(of: session)
        let confirmed = lines(sync).filter { $0.contains("confirmed") }
        #expect(confirmed.first?.contains("unrepost") == true, "newest first:\n\(sync)")
        #expect(confirmed.dropFirst().first?.contains("repost") == true, "\(sync)")

        // And after a restart the post is still not reposted, its count as before
        try await session.restart()
        await session.settle()
        let restarted = HeadlessHarness.frame(of: session)
        #expect(selectedCounts(restarted) == before, "\(app.id) after a restart:\n\(restarted)")
        await session.stop()

        // And the other app sees the undo too
        #expect(try await Self.countsSeen(by: other, on: directories.sibling()) == before, "\(other.id)")
    }

    @Test(arguments: ShippedApp.withHome)
    func anUndoTheServerRefuses_keepsTheRepost_andSaysSoPlainly(app: ShippedApp) async throws {
        // Given the viewer reposted grace's post
        let (directories, text) = try await Self.prepare(app)
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, deletesBehindTheApp: true)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let id = try #require(feed.postList.selectedItem?.media.id)
        #expect(feed.postList.selectedItem?.media.text == text)
        await Self.press(.character("s"), in: session)
        let reposted = try #require(selectedCounts(HeadlessHarness.frame(of: session)))
        #expect(reposted.reposted)
        let home = try Self.homeTexts(session)

        // And grace deleted it on the server since (the server answers not found)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        try await BackendFixtures.delete(on: server, as: "grace", id.rawValue)

        // When the viewer presses s to undo the repost
        await Self.press(.character("s"), in: session)
        let refused = HeadlessHarness.frame(of: session)

        // Then the undo is rolled back: still reposted, the same count, Home as it was
        #expect(selectedCounts(refused) == reposted, "\(app.id):\n\(refused)")
        #expect(try Self.homeTexts(session) == home)
        #expect(
            DeleteScenarios.status(refused)
                == "✕ could not undo the repost of @grace's post · Sync (\(app.syncKey)) says why and retries",
            "\(app.id):\n\(refused)")
        await Self.press(.character("j"), in: session)
        await Self.press(.character("k"), in: session)
        #expect(Self.sInFooter(session) == "undo repost", "s still undoes it")

        // And the Sync tab lists it as failed, named by its post, with why in plain words
        await Self.press(.character(app.syncKey), in: session)
        let sync = HeadlessHarness.frame(of: session)
        #expect(sync.contains("Changes: 0 pending, 1 failed"), "\(app.id):\n\(sync)")
        #expect(sync.contains("✕ undo repost · @grace · \"Compiler cache on the harbo"), "\(sync)")
        #expect(sync.contains("the post is gone"), "\(sync)")
    }
}
