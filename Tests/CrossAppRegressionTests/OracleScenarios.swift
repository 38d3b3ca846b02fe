import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import Mutations
import TerminalUI
import Testing

/// The oracle that looks at every step of every scenario sees what it is for: each breakage a
/// person would notice, planted in a real session's list, is reported in words; the same
/// session untouched is clean.
@Suite @MainActor struct OracleScenarios {
    /// A launched app on its home feed, its list, and the oracle for it.
    private func home(_ app: ShippedApp) async throws -> (AppSession, PostList, ScreenOracle) {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), oracle: false)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        try #require(feed.items.count >= 3, "the seed's home feed")
        return (session, feed.postList, ScreenOracle(app: app))
    }

    /// Shows `items` in `list` in place of what the app built, and waits until they are on screen.
    private func plant(_ items: [PostItem], in list: PostList, session: AppSession) async {
        list.show(items)
        await session.settle()
    }

    private func violations(_ session: AppSession, _ oracle: ScreenOracle) async -> [String] {
        await oracle.violations(in: session, settled: true)
    }

    @Test(arguments: ShippedApp.withHome)
    func anUntouchedHome_isClean(app: ShippedApp) async throws {
        let (session, _, oracle) = try await home(app)
        #expect(await violations(session, oracle) == [])
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func aCountTheServerDoesNotHave_isReported(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        items[0].row.facts.likeCount += 5
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle)
        #expect(found.contains { $0.contains("where the server and the pending changes make") }, "\(found)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func twoEntriesOutOfTheServersOrder_areReported(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        items.swapAt(0, 1)
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle)
        #expect(found.contains { $0.contains("below one the server's feed puts after it") }, "\(found)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func aPostShownTwice_isReported(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        let standalone = try #require(
            items.first { if case .standalone = $0.context { true } else { false } })
        var copy = standalone
        copy.id = "again-\(standalone.id)"
        items.insert(copy, at: 2)
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle)
        #expect(found.contains { $0.contains("is shown twice") }, "\(found)")
        #expect(found.contains { $0.contains("which is not in the server's feed") }, "\(found)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func aSendingMarkWithNothingWaiting_isReported(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        items[0].row.status = .pending(MutationToken("not-in-any-journal"))
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle)
        #expect(
            found.contains { $0.contains("is marked sending, but its change is not in the journal") },
            "\(found)")
        #expect(found.contains { $0.contains("'sending…' marks with 0 changes waiting") }, "\(found)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func aPostTheServerDoesNotHave_isReported(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        let media = items[1].media
        items[1].row.entry.media = Media(
            id: MediaID("m-never-posted"), author: media.author, createdAt: media.createdAt, text: media.text,
            attachments: media.attachments)
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle)
        #expect(found.contains { $0.contains("the server has no such post") }, "\(found)")
        await session.stop()
    }

    @Test(arguments: ShippedApp.withHome)
    func aTextOnlyPost_isReportedOnlyWhereTheAppsHomeShowsNone(app: ShippedApp) async throws {
        let (session, list, oracle) = try await home(app)
        var items = list.items
        let media = items[0].media
        items[0].row.entry.media = Media(
            id: media.id, author: media.author, createdAt: media.createdAt, text: media.text, attachments: [])
        await plant(items, in: list, session: session)
        let found = await violations(session, oracle).filter { $0.contains("text-only post") }
        #expect(found.isEmpty == app.showsTextPosts, "\(found)")
        await session.stop()
    }
}

/// The oracle's own ruler for the width of a row.
@Suite struct TerminalColumnsTests {
    @Test func countsWideEmojiAndCombiningGraphemesAsATerminalDraws() {
        #expect(TerminalColumns.of("abc") == 3)
        #expect(TerminalColumns.of("漢字") == 4)
        #expect(TerminalColumns.of("カナ") == 4)
        #expect(TerminalColumns.of("👩‍💻") == 2)
        #expect(TerminalColumns.of("👍🏽") == 2)
        #expect(TerminalColumns.of("e\u{301}") == 1)
        #expect(TerminalColumns.of("\u{301}") == 0)
        #expect(TerminalColumns.of("שלום") == 4)
        #expect(TerminalColumns.of("ＡＢ") == 4)
    }
}

/// The oracle holds each app to its own rules: another kind of app's screens, judged by them, fail.
/// The apps are chosen by what their registries say (a feed with text posts or without, threaded
/// replies or comments).
@Suite @MainActor struct OracleAppRulesScenarios {
    @Test func aTextFirstHome_judgedByThePhotoFirstRules_isReported() async throws {
        let textFirst = try #require(ShippedApp.first { $0.showsTextPosts }, "an app whose feed shows text")
        let photoFirst = try #require(ShippedApp.first { !$0.showsTextPosts }, "an app whose feed does not")
        let (session, _) = try await HeadlessHarness.session(
            textFirst.definition, directories: try TestDirectories.make(), oracle: false)
        let found = await ScreenOracle(app: photoFirst).violations(in: session, settled: true)
        #expect(
            found.contains { $0.contains("\(photoFirst.id) shows a text-only post on its home feed") },
            "\(found)")
        #expect(await ScreenOracle(app: textFirst).violations(in: session, settled: true) == [])
        await session.stop()
    }

    @Test func threadedReplies_judgedByTheCommentRules_areReported() async throws {
        let directories = try TestDirectories.make()
        let server = try directories.openBackend()
        let post = try await BackendFixtures.post(
            on: server, as: "grace", text: "Tide pools at noon", attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.reply(on: server, as: "mary", to: post, text: "Lovely light")
        server.close()
        let threaded = try #require(ShippedApp.first { !$0.repliesAreComments && $0.showsTextPosts })
        let comments = try #require(ShippedApp.first { $0.repliesAreComments })
        let (session, _) = try await HeadlessHarness.session(
            threaded.definition, directories: directories, oracle: false)
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(feed.postList.selectedItem?.media.text == "Tide pools at noon")
        _ = session.shell?.handle(.enter)
        await session.settle()
        #expect(session.shell?.currentScreen is ThreadScreen)
        let found = await ScreenOracle(app: comments).violations(in: session, settled: true)
        #expect(found.contains { $0.contains("draws a reply as a threaded post") }, "\(found)")
        #expect(await ScreenOracle(app: threaded).violations(in: session, settled: true) == [])
        await session.stop()
    }
}
