import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import TerminalUI
import Testing
import Wire

/// Each app's own thread, driven deep: a reply to a reply to a reply to a post. An app whose reply
/// model threads replies opens the deepest one under every post it answers, root first, and a
/// reply to any of them answers that one. An app whose replies are comments shows a post's
/// comments flat, so its Comments list the post's own comments and a comment always answers the
/// post. Frames are checked whole (every row of the
/// screen) at four sizes, against goldens.
@Suite @MainActor struct DeepThreadScenarios {
    /// The sizes the whole screen is kept at: the usual terminal, a larger one, a small one and a
    /// tall one.
    static let sizes = [
        (width: 80, height: 24), (width: 100, height: 30), (width: 60, height: 20), (width: 80, height: 50),
    ]

    /// The chain: grace's photo post, then each reply answering the one before.
    static let chain: [(handle: String, text: String)] = [
        ("grace", "Lighthouse at dawn from the north pier"),
        ("mary", "Which lighthouse is this one?"),
        ("ken", "The old one on the north pier"),
        ("linus", "It was rebuilt in 1902 after the storm"),
        ("mary", "So the lamp is newer than the tower"),
    ]

    /// The chain's media ids, root first, on a fresh backend where the viewer follows every
    /// author of the chain.
    static func prepare() async throws -> (TestDirectories, ids: [String]) {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        for handle in Set(chain.map(\.handle)) {
            try await BackendFixtures.follow(on: backend, as: BackendSeed.firstHandle, handle)
        }
        var ids = [
            try await BackendFixtures.post(
                on: backend, as: chain[0].handle, text: chain[0].text,
                attachmentsJSON: BackendFixtures.photoJSON)
        ]
        for link in chain.dropFirst() {
            let id = try await BackendFixtures.reply(
                on: backend, as: link.handle, to: ids.last ?? "", text: link.text)
            ids.append(id)
        }
        backend.close()
        return (directories, ids)
    }

    /// The direct replies of `id` on the server, oldest first.
    static func replies(of id: String, on server: BackendServer) async throws -> [String] {
        let response = await server.handle(
            Request(
                .get, "/v1/posts/\(id)/thread",
                headers: ["Authorization": "Bearer \(server.testToken(forHandle: BackendSeed.firstHandle))"]))
        try #require(response.status == 200)
        return try WireFormat.decode(ThreadPage.self, from: response.body).payload.replies.entries.map(
            \.media.text)
    }

    /// The first line of `frame` (from `start`) that holds `text`.
    static func row(of text: String, in frame: String, from start: Int = 0) -> Int? {
        let all = lines(frame)
        return all.indices.dropFirst(start).first { all[$0].contains(text) }
    }

    /// Checks the whole frame of `session` at every size against the golden `name`, with the
    /// chain's texts that fit, in order, and nothing wider than the screen.
    static func checkEverySize(
        _ session: AppSession, app: ShippedApp, name: String, texts: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async {
        for size in sizes {
            session.resize(width: size.width, height: size.height)
            await session.settle()
            let frame = HeadlessHarness.frame(of: session)
            let rows = lines(frame)
            #expect(rows.count == size.height, sourceLocation: sourceLocation)
            #expect(
                rows.allSatisfy { TerminalColumns.of(String($0)) <= size.width }, "\(app.id) at \(size)",
                sourceLocation: sourceLocation)
            // The texts are drawn in the given order, each below the one before: every one on the
            // tall screen, at least the first on the others.
            var next = 0
            var found = 0
            for text in texts {
                guard let row = row(of: String(text.prefix(size.width - 12)), in: frame, from: next) else {
                    break
                }
                next = row + 1
                found += 1
            }
            #expect(
                found >= (size.height >= 50 ? texts.count : 1),
                "\(app.id) at \(size): \(found) in order\n\(frame)",
                sourceLocation: sourceLocation)
            GoldenFrames.check(
                frame, app: app.id, name: "deep/\(name)-\(size.width)x\(size.height)",
                directory: goldenDirectory,
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ShippedApp.withHome.filter { !$0.repliesAreComments })
    func threaded_theDeepestReply_opensUnderEveryPostItAnswers_rootFirst(app: ShippedApp) async throws {
        let (directories, ids) = try await Self.prepare()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)

        // Given Home: every reply of the chain is its own entry, newest first, each with the
        // post it answers as context
        let entries = feed.items.prefix(Self.chain.count)
        #expect(entries.map(\.media.text) == Self.chain.map(\.text).reversed())
        for (index, entry) in entries.enumerated() where index < Self.chain.count - 1 {
            guard case .reply(let parent) = entry.context else {
                Issue.record("\(entry) is shown without the post it answers")
                continue
            }
            #expect(parent.text == Self.chain[Self.chain.count - 2 - index].text)
        }
        await Self.checkEverySize(
            session, app: app, name: "home", texts: Self.chain.map(\.text).reversed())

        // When the person opens the deepest reply
        session.resize(width: 80, height: 24)
        await DeleteScenarios.press(.enter, in: session)
        let thread = try #require(shell.currentScreen as? ThreadScreen)

        // Then it is focused under every post it answers, root first, each once
        #expect(thread.items.map(\.media.text) == Self.chain.map(\.text))
        #expect(thread.items.map(\.role) == [.ancestor, .ancestor, .ancestor, .ancestor, .focus])
        #expect(thread.postList.selectedItem?.role == .focus)
        await Self.checkEverySize(session, app: app, name: "thread", texts: Self.chain.map(\.text))

        // When the person replies to the second reply (two posts up from the focus)
        session.resize(width: 80, height: 24)
        await DeleteScenarios.press(.character("k"), in: session)
        await DeleteScenarios.press(.character("k"), in: session)
        #expect(thread.postList.selectedItem?.media.text == Self.chain[2].text)
        await DeleteScenarios.press(.character("r"), in: session)
        let composer = HeadlessHarness.frame(of: session)
        #expect(
            lines(composer)[2].hasPrefix(
                " replying to @\(Self.chain[2].handle): \(Self.chain[2].text.prefix(20))"),
            "\(composer)")
        for character in "Agreed, the north pier" { _ = shell.handle(.character(character)) }
        await DeleteScenarios.press(.enter, in: session)

        // Then the server has it as a reply of that post, after the one reply it had
        #expect(
            try await Self.replies(of: ids[2], on: server) == [Self.chain[3].text, "Agreed, the north pier"])
        #expect(
            try await Self.replies(of: ids[3], on: server) == [Self.chain[4].text], "not of the one below")
        #expect(shell.context.manager.pending.isEmpty && shell.context.manager.failed.isEmpty)
    }

    /// A reply to a reply (made in an app whose replies are threaded) is reachable in every app:
    /// Enter on the reply it answers opens that reply with its own replies under it, even where
    /// replies are comments.
    @Test(arguments: ShippedApp.withHome)
    func aReplyToAReply_isReachable_byEnterOnTheReplyItAnswers(app: ShippedApp) async throws {
        let (directories, _) = try await Self.prepare()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let index = try #require(feed.items.firstIndex { $0.media.text == Self.chain[0].text })
        for _ in 0..<index { await DeleteScenarios.press(.character("j"), in: session) }
        await DeleteScenarios.press(.enter, in: session)
        let thread = try #require(shell.currentScreen as? ThreadScreen)

        // When Enter is pressed on the first reply
        let reply = try #require(thread.items.firstIndex { $0.media.text == Self.chain[1].text })
        let selected = try #require(thread.postList.selectedIndex)
        for _ in 0..<max(reply - selected, 0) { await DeleteScenarios.press(.character("j"), in: session) }
        #expect(thread.postList.selectedItem?.media.text == Self.chain[1].text)
        await DeleteScenarios.press(.enter, in: session)

        // Then the reply to it is listed, on the screen shown
        let opened = try #require(shell.currentScreen as? ThreadScreen)
        #expect(
            opened.items.contains { $0.media.text == Self.chain[2].text },
            "\(app.id): \(opened.items.map(\.media.text))\n\(HeadlessHarness.frame(of: session))")
    }

    @Test(arguments: ShippedApp.all.filter(\.repliesAreComments))
    func comments_aPostsCommentsAreFlat_andACommentAnswersThePost(app: ShippedApp) async throws {
        let (directories, ids) = try await Self.prepare()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)

        // Given Home: the photo post on top (the text replies are comments, never Home posts),
        // counting its one comment
        #expect(feed.items.first?.media.text == Self.chain[0].text)
        #expect(!feed.items.contains { Self.chain.dropFirst().map(\.text).contains($0.media.text) })
        #expect(selectedCounts(HeadlessHarness.frame(of: session))?.replies == 1)
        await Self.checkEverySize(session, app: app, name: "home", texts: [Self.chain[0].text])

        // When the person opens its comments
        session.resize(width: 80, height: 24)
        await DeleteScenarios.press(.enter, in: session)
        let thread = try #require(shell.currentScreen as? ThreadScreen)

        // Then the post heads them and its one comment follows, flat: the replies to that comment
        // are the comment's, not the post's
        #expect(thread.items.map(\.media.text) == [Self.chain[0].text, Self.chain[1].text])
        #expect(thread.items.map(\.role) == [.focus, .reply])
        await Self.checkEverySize(
            session, app: app, name: "comments", texts: [Self.chain[0].text, Self.chain[1].text])

        // When the person comments with the comment selected
        session.resize(width: 80, height: 24)
        await DeleteScenarios.press(.character("j"), in: session)
        #expect(thread.postList.selectedItem?.media.text == Self.chain[1].text)
        await DeleteScenarios.press(.character("r"), in: session)
        let composer = HeadlessHarness.frame(of: session)
        #expect(
            lines(composer)[2].hasPrefix(" replying to @grace: \(Self.chain[0].text.prefix(20))"),
            "\(composer)")
        for character in "Lovely light" { _ = shell.handle(.character(character)) }
        await DeleteScenarios.press(.enter, in: session)

        // Then the comment answers the post, after the one it had, and shows last in the list
        #expect(try await Self.replies(of: ids[0], on: server) == [Self.chain[1].text, "Lovely light"])
        #expect(try await Self.replies(of: ids[1], on: server) == [Self.chain[2].text])
        #expect(thread.items.map(\.media.text) == [Self.chain[0].text, Self.chain[1].text, "Lovely light"])
        #expect(thread.items.first?.facts.replyCount == 2)
        let after = HeadlessHarness.frame(of: session)
        #expect(lines(after).filter { $0.contains("♡ 0   ↩ 2   ↻ 0") }.count == 1, "\(after)")
    }
}
