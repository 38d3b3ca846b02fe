import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import Sockets
import TerminalUI
import Testing
import Wire

/// Text as people write it: wide CJK and Hangul, emoji with ZWJ sequences and skin tones, flags,
/// decomposed accents, Arabic and Hebrew, a 200-character word, an empty caption. Posted by
/// another user, typed in the composer, and seeded; each frame is checked as a person reads it.
@Suite @MainActor struct RealWorldTextScenarios {
    /// The sizes every check runs at: the usual terminal, a larger one and a narrow one.
    static let sizes = [(width: 80, height: 24), (width: 100, height: 30), (width: 40, height: 30)]

    static let cjk = "東京の朝ごはん：味噌汁と焼き魚。한강 노을도 좋아요"
    static let emoji = "Pairing 👩‍💻 then dinner 👨‍👩‍👧 nice work 👍🏽 🇯🇵 ❤️"
    static let accents = "Cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e, nai\u{308}ve re\u{301}sume\u{301}"
    static let arabic = "مرحبا بالعالم! هذا نص عربي"
    static let hebrew = "שלום עולם and an English tail"
    static let longWord =
        "https://example.com/" + String(repeating: "very-long-path-segment-without-spaces/", count: 4)
        + String(repeating: "x", count: 28)

    /// A caption of nothing but spaces and a line break: the backend takes it with a photo.
    static let blankCaption = "  \n "

    /// The posts the scenarios make, oldest first, each with a photo so both apps show it; an
    /// ASCII neighbour above and below.
    static let posts = [
        "Plain neighbour below", cjk, emoji, accents, arabic, hebrew, longWord, "", blankCaption, "Short",
        "Plain neighbour above",
    ]

    // MARK: - Checks on every frame

    /// Every line fits the screen in display columns, and no wide grapheme is cut: each lead
    /// cell has its continuation on the same line.
    static func expectFits(
        _ buffer: ScreenBuffer, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (y, line) in HeadlessRenderer.lines(of: buffer).enumerated() {
            let columns = DisplayColumns.of(line)
            #expect(
                columns <= buffer.width, "\(context): line \(y) is \(columns) columns wide: \(line)",
                sourceLocation: sourceLocation)
            let cells = Array(buffer.line(y))
            for (x, cell) in cells.enumerated() where cell.width == 2 {
                #expect(
                    x + 1 < cells.count && cells[x + 1].isContinuation,
                    "\(context): '\(cell.character)' at \(x),\(y) is cut", sourceLocation: sourceLocation)
            }
        }
    }

    /// The selected post's lines, selection marker removed.
    static func selectedPost(_ frame: String) -> [String] {
        lines(frame).filter { $0.hasPrefix("▌") }.map { String($0.dropFirst()) }
    }

    /// Text with every space and line break removed, and the selection bar and threadlines a
    /// wrapped line starts with: wrapping may move or add those, nothing else.
    static func unwrapped<Text: StringProtocol>(_ text: Text) -> String {
        String(text.filter { !$0.isWhitespace && !"▌│┃".contains($0) })
    }

    /// Posts `posts` (each with a photo) on `directories`' backend as `handle`, oldest first.
    static func postAll(on directories: TestDirectories, as handle: String = "ada") async throws {
        let server = try directories.openBackend()
        defer { server.close() }
        for text in posts {
            try await BackendFixtures.post(
                on: server, as: handle, text: text, attachmentsJSON: BackendFixtures.photoJSON)
        }
    }

    // MARK: - Scenarios

    @Test(arguments: ShippedApp.withHome)
    func realWorldPosts_showWordForWord_fitTheScreen_andKeepTheirNeighbours(app: ShippedApp) async throws {
        for size in Self.sizes {
            // Given the posts, newest at the top of ada's home feed, and the feed as it was before
            let baseline = try await HeadlessHarness.session(
                app.definition, directories: try TestDirectories.make(), width: size.width,
                height: size.height
            ).session
            let seedTop = Self.selectedPost(HeadlessHarness.frame(of: baseline))
            await baseline.stop()
            let directories = try TestDirectories.make()
            try await Self.postAll(on: directories)
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: directories, width: size.width, height: size.height)
            let place = "\(app.id) at \(size.width)x\(size.height)"

            // When each is selected in turn, newest first, then the seed's own top post
            var blocks: [[String]] = []
            for _ in 0...Self.posts.count {
                let buffer = session.render().buffer
                Self.expectFits(buffer, place)
                blocks.append(Self.selectedPost(HeadlessRenderer.text(of: buffer)))
                _ = session.shell?.handle(.character("j"))
                await session.settle()
            }
            await session.stop()

            // Then each shows its text whole and in order (wrapping moves only spaces)
            func block(_ text: String) throws -> [String] {
                blocks[Self.posts.count - 1 - (try #require(Self.posts.firstIndex(of: text)))]
            }
            for (block, text) in zip(blocks, Self.posts.reversed()) where !Self.unwrapped(text).isEmpty {
                #expect(
                    Self.unwrapped(block.joined()).contains(Self.unwrapped(text)),
                    "\(place): \(text.prefix(20)) shows whole:\n\(block.joined(separator: "\n"))")
            }
            // right-to-left text in logical order, as typed
            let all = blocks.joined().joined(separator: "\n")
            #expect(all.contains("مرحبا بالعالم!"), "\(place): Arabic in logical order")
            #expect(all.contains("שלום עולם"), "\(place): Hebrew in logical order")
            // the long word is broken over several lines, none wider than the screen
            let longBlock = try block(Self.longWord)
            #expect(
                longBlock.filter { $0.contains("very-long") || $0.contains("xxxx") }.count >= 2,
                "\(place): the long word wraps:\n\(longBlock.joined(separator: "\n"))")
            // an empty or blank caption adds no line: the post is one line shorter than "Short"
            let short = try block("Short")
            for caption in ["", Self.blankCaption] {
                let empty = try block(caption)
                let shown = empty.joined(separator: "\n")
                #expect(
                    empty.count == short.count - 1, "\(place): caption \(caption.debugDescription)\n\(shown)")
                #expect(
                    !empty.contains { $0.trimmingCharacters(in: .whitespaces) == "ada" },
                    "\(place): no author line without a caption\n\(shown)")
                #expect(
                    empty.filter { $0.trimmingCharacters(in: .whitespaces).isEmpty }.count == 1,
                    "\(place): only the separator is blank:\n\(shown)")
            }
            // and the neighbours are as they were: the ASCII posts, and the seed's top post below
            #expect(blocks.first.map { Self.unwrapped($0.joined()).contains("Plainneighbourabove") } == true)
            #expect(
                blocks[Self.posts.count - 1].contains { $0.hasSuffix("Plain neighbour below") },
                "\(place): \(blocks[Self.posts.count - 1])")
            #expect(blocks.last == seedTop, "\(place): the seed's first post is unchanged below them")
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func textTypedInTheComposer_isWhatTheOtherAppShows(app: ShippedApp) async throws {
        let text = "漢字かな 👩‍💻👍🏽 Cafe\u{301} שלום end"
        for size in Self.sizes {
            // Given the composer, when the text is typed, a photo picked and the post sent
            let directories = try TestDirectories.make()
            let run = await HeadlessHarness.run(
                app.definition,
                script:
                    "wait\nkey n\ntype \(text)\nframe\nattach \(try TestPhotos.sample())\nkey enter\nwait\nframe\n",
                directories: directories, width: size.width, height: size.height)
            let place = "\(app.id) at \(size.width)x\(size.height)"
            #expect(run.status == 0, "\(place): \(run.errors)")
            #expect(run.frames.count == 2)
            // Then the composer shows it as typed, and the post is at the top of home
            let composer = run.frames.first ?? ""
            #expect(
                Self.unwrapped(composer).contains(Self.unwrapped(text)), "\(place) composer:\n\(composer)")
            #expect(
                lines(composer).allSatisfy { DisplayColumns.of($0) <= size.width }, "\(place):\n\(composer)")
            let posted = Self.selectedPost(run.lastFrame).joined()
            #expect(Self.unwrapped(posted).contains(Self.unwrapped(text)), "\(place):\n\(run.lastFrame)")

            // and the other app on the same backend shows the same text
            for other in ShippedApp.withHome where other.id != app.id {
                let seen = await HeadlessHarness.run(
                    other.definition, script: "wait\nframe\n", directories: directories.sibling(),
                    width: size.width, height: size.height)
                let top = Self.selectedPost(seen.lastFrame).joined()
                #expect(
                    Self.unwrapped(top).contains(Self.unwrapped(text)),
                    "\(other.id) at \(size.width)x\(size.height) shows what \(app.id) posted:\n\(seen.lastFrame)"
                )
            }
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func repliesInRealWorldText_showWholeInTheThread_inBothApps(app: ShippedApp) async throws {
        let fixtureReply = "美味しそう！😋 👨‍👩‍👧 \(Self.accents)"
        let typedReply = "شكرا 👍🏽 תודה 漢字"
        for size in Self.sizes {
            // Given ada's post with a reply from grace in CJK, emoji and accents
            let directories = try TestDirectories.make()
            let server = try directories.openBackend()
            let post = try await BackendFixtures.post(
                on: server, as: "ada", text: "Dinner tonight", attachmentsJSON: BackendFixtures.photoJSON)
            try await BackendFixtures.reply(on: server, as: "grace", to: post, text: fixtureReply)
            server.close()
            let place = "\(app.id) at \(size.width)x\(size.height)"

            // When the thread is opened, the reply selected, and ada replies in Arabic and Hebrew
            let run = await HeadlessHarness.run(
                app.definition,
                script:
                    "wait\nkey enter\nwait\nkey j\nframe\nkey r\ntype \(typedReply)\nkey enter\nwait\nkey j\nframe\n",
                directories: directories, width: size.width, height: size.height)
            #expect(run.status == 0, "\(place): \(run.errors)")

            // Then the thread shows each reply whole, within the screen
            #expect(run.frames.count == 2)
            for frame in run.frames {
                #expect(
                    lines(frame).allSatisfy { DisplayColumns.of($0) <= size.width }, "\(place):\n\(frame)")
            }
            #expect(
                Self.unwrapped(run.frames.first ?? "").contains(Self.unwrapped(fixtureReply)),
                "\(place): grace's reply\n\(run.frames.first ?? "")")
            #expect(
                Self.unwrapped(run.lastFrame).contains(Self.unwrapped(typedReply)),
                "\(place): ada's reply\n\(run.lastFrame)")

            // and the other app's thread of the post shows the same replies
            for other in ShippedApp.withHome where other.id != app.id {
                let (session, _) = try await HeadlessHarness.session(
                    other.definition, directories: directories.sibling(), width: size.width,
                    height: size.height + 20)
                let shell = try #require(session.shell)
                shell.push(
                    ThreadScreen(
                        context: shell.context, mediaID: MediaID(post), width: size.width,
                        height: size.height + 20))
                await session.settle()
                let frame = HeadlessHarness.frame(of: session)
                await session.stop()
                // (where replies are comments, ada's answers the post; in a threaded app it
                // answers the selected reply, a level down)
                let thread = Self.unwrapped(frame)
                #expect(
                    thread.contains(Self.unwrapped(fixtureReply))
                        && thread.contains(Self.unwrapped(typedReply)) == app.repliesAreComments,
                    "\(other.id) shows the replies made in \(app.id):\n\(frame)")
            }
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func aWaitingLikeOnAWideTextPost_keepsTheSyncTabsColumnsInLine(app: ShippedApp) async throws {
        for width in [80, 40] {
            // Given a post in CJK by someone ada follows, at the top of her feed
            let directories = try TestDirectories.make()
            let server = try directories.openBackend()
            try await BackendFixtures.follow(on: server, as: "ada", "grace")
            try await BackendFixtures.post(
                on: server, as: "grace", text: Self.cjk, attachmentsJSON: BackendFixtures.photoJSON)
            server.close()
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: directories, width: width, height: 24)
            let shell = try #require(session.shell)

            // When it is liked offline and the Sync tab is opened
            shell.context.faultControl?.setFaultProfile(.offline)
            session.networkDidChange()
            _ = shell.handle(.character("l"))
            await session.settle()
            shell.openTab(.mutations)
            await session.settle()
            let buffer = session.render().buffer
            let frame = HeadlessRenderer.text(of: buffer)
            await session.stop()

            // Then the row names the post by its first words and its state sits under "state"
            Self.expectFits(buffer, "\(app.id) Sync at \(width)")
            let rows = lines(frame)
            let header = try #require(
                rows.first { $0.contains("change") && $0.contains("state") }, "\(frame)")
            let row = try #require(rows.first { $0.contains("like · @gr") }, "\(frame)")
            if width >= 80 {
                #expect(row.contains("like · @grace · \"東京の"), "the post's first words: \(row)")
            }
            let stateColumn = header.range(of: "state").map { DisplayColumns.of(header[..<$0.lowerBound]) }
            let waitingColumn = row.range(of: "waiting").map { DisplayColumns.of(row[..<$0.lowerBound]) }
            #expect(
                stateColumn != nil && waitingColumn == stateColumn,
                "\(app.id) at \(width): the state is in its column\n\(header)\n\(row)")
        }
    }

    @Test(arguments: ShippedApp.withHome)
    func theComposer_movesItsCursorByColumns_andBackspaceDeletesAWholeGrapheme(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: 80, height: 24)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.compose)
        await session.settle()
        let start = try #require(session.render().cursor, "the composer shows a cursor")

        // Typing a wide ideograph moves the cursor two columns; a family emoji two; "e" and a
        // combining acute typed apart make one column
        let steps: [(typed: [Character], columns: Int)] = [
            (["漢"], 2), (["👨‍👩‍👧"], 2), (["e", "\u{301}"], 1), (["x"], 1),
        ]
        var expected = start.x
        for step in steps {
            for character in step.typed { _ = shell.handle(.character(character)) }
            expected += step.columns
            let cursor = try #require(session.render().cursor)
            #expect(cursor.x == expected, "after \(step.typed): \(HeadlessHarness.frame(of: session))")
        }
        #expect(HeadlessHarness.frame(of: session).contains("漢👨‍👩‍👧e\u{301}x"))

        // And backspace takes back one whole grapheme at a time
        for step in steps.reversed() {
            _ = shell.handle(.backspace)
            expected -= step.columns
            let cursor = try #require(session.render().cursor)
            #expect(cursor.x == expected, "backspace over \(step.typed)")
        }
        #expect(!HeadlessHarness.frame(of: session).contains("漢"), "everything typed is gone")
    }

    @Test(arguments: ShippedApp.withHome)
    func theSeedsRealWorldText_showsWholeWhereTheAppsFeedPolicyPutsIt(app: ShippedApp) async throws {
        // Given the seed's real-world posts, deep in the home feed, at a narrow width
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: 40, height: 30)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let wanted = BackendSeed.realWorldText.filter {
            $0.replyTo == nil && !$0.text.isEmpty && ($0.hasPhoto || app.showsTextPosts)
        }
        let texts = Set(BackendSeed.realWorldText.map(\.text))

        // When the feed is paged down until they are loaded, and each is selected in turn
        var pages = 0
        // (the oldest of them, the first in `realWorldText`, arrives last)
        while !feed.items.contains(where: { $0.media.text == wanted.first?.text }), pages < 300 {
            for _ in 0..<5 { _ = session.shell?.handle(.pageDown) }
            await session.settle()
            pages += 1
        }
        var seen: [String] = []
        for post in wanted {
            let item = try #require(feed.items.first { $0.media.text == post.text }, "\(post.text)")
            feed.postList.select(id: item.id)
            await session.settle()
            let buffer = session.render().buffer
            Self.expectFits(buffer, "\(app.id) seed")
            seen.append(Self.selectedPost(HeadlessRenderer.text(of: buffer)).joined())
        }

        // Then each shows whole, and the app shows exactly the kinds its feed policy shows
        for (block, post) in zip(seen, wanted) {
            #expect(
                Self.unwrapped(block).contains(Self.unwrapped(post.text)), "\(post.text.prefix(20)): \(block)"
            )
        }
        let shown = feed.items.filter { texts.contains($0.media.text) && $0.media.text.isEmpty == false }
        #expect(shown.count == wanted.count + (app.showsReplyParent ? 2 : 0), "\(shown.map(\.media.text))")
    }

    @Test func displayColumns_agreesWithTerminalUI_onEveryRealWorldText() {
        let texts = Self.posts + BackendSeed.realWorldText.map(\.text) + ["漢字", "👩‍💻", "👍🏽", "e\u{301}", "🇯🇵"]
        for text in texts {
            #expect(DisplayColumns.of(text) == DisplayWidth.of(text), "\(text)")
        }
        #expect(DisplayColumns.of("漢字") == 4)
        #expect(DisplayColumns.of("👨‍👩‍👧") == 2)
        #expect(DisplayColumns.of("👍🏽") == 2)
        #expect(DisplayColumns.of("e\u{301}") == 1)
        #expect(DisplayColumns.of("שלום") == 4)
        #expect(DisplayColumns.of("❤️") == 2)
        #expect(DisplayColumns.of("❤\u{FE0E}") == 1)
    }
}
