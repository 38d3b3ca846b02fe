import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Testing
import Wire

/// Limits tried where a person meets them: at the limit, one below and one above, through the
/// screens of both apps, checking counts, order and neighbours.
@Suite @MainActor struct BoundaryScenarios {
    /// The replies the thread screen asks for at once (the server's page of a thread).
    static let threadPage = 50

    /// Presses `key` and waits for what it started.
    static func press(_ key: Key, in session: AppSession) async {
        _ = session.shell?.handle(key)
        await session.settle()
    }

    /// Goes to the end of the current list until nothing more arrives (each press waits for the
    /// page it asked for, so one press that brings nothing is the end).
    static func goToTheEnd(of list: PostList, in session: AppSession) async {
        var count = -1
        while list.items.count != count {
            count = list.items.count
            await press(.character("G"), in: session)
        }
    }

    /// Selects the post showing `text` in `list` with j and k, as a person would.
    static func select(_ text: String, in list: PostList, session: AppSession) async throws {
        await press(.character("g"), in: session)
        var presses = 0
        while list.selectedItem?.media.text != text, presses < list.items.count {
            await press(.character("j"), in: session)
            presses += 1
        }
        try #require(list.selectedItem?.media.text == text, "'\(text)' is listed")
    }

    /// Opens the profile of `handle` through Find people, as a person would.
    static func openProfile(of handle: String, in session: AppSession) async throws -> ProfileScreen {
        let shell = try #require(session.shell)
        await press(.character("/"), in: session)
        for character in handle { _ = shell.handle(.character(character)) }
        await session.settle()
        let people = try #require(shell.currentScreen as? PeopleScreen)
        #expect(people.found.first?.user.handle == handle)
        await press(.enter, in: session)
        let profile = try #require(shell.currentScreen as? ProfileScreen)
        #expect(profile.title == "@\(handle)")
        return profile
    }

    // MARK: A thread's replies: one page, one less, one more

    /// The text of reply `number` of a post with `count` replies.
    static func replyText(_ number: Int, of count: Int) -> String { "Answer \(number) of \(count)" }

    @Test(arguments: ShippedApp.withHome)
    func aThreadWithAPageOfRepliesAndOneMoreOrLess_showsEveryReplyOnceInOrder(app: ShippedApp) async throws {
        // Given three photo posts of grace's with 49, 50 and 51 replies (from different people)
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let counts = [Self.threadPage - 1, Self.threadPage, Self.threadPage + 1]
        var posts: [Int: String] = [:]
        for count in counts {
            let text = "Tide table with \(count) answers"
            let id = try await BackendFixtures.post(
                on: backend, as: "grace", text: text, attachmentsJSON: BackendFixtures.photoJSON)
            posts[count] = text
            for number in 1...count {
                let handle = BackendSeed.handles[2 + number % 20]
                try await BackendFixtures.reply(
                    on: backend, as: handle, to: id, text: Self.replyText(number, of: count))
            }
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let profile = try await Self.openProfile(of: "grace", in: session)

        for count in counts {
            // When the person opens the post and goes to the end of its replies
            let text = try #require(posts[count])
            try await Self.select(text, in: profile.postList, session: session)
            await Self.press(.enter, in: session)
            let thread = try #require(shell.currentScreen as? ThreadScreen, "\(app.id): the thread opens")
            #expect(thread.items.first?.media.text == text, "\(app.id): the post heads its thread")
            await Self.goToTheEnd(of: thread.postList, in: session)

            // Then every reply is there once, oldest first, the last one selected at the end
            let replies = thread.items.filter { $0.role == .reply }.map(\.media.text)
            #expect(
                replies == (1...count).map { Self.replyText($0, of: count) },
                "\(app.id), \(count) replies: \(replies.count) shown, last '\(replies.last ?? "none")'")
            #expect(thread.items.count == 1 + count, "\(app.id): the post and its \(count) replies")
            #expect(thread.postList.selectedIndex == thread.items.count - 1)
            #expect(thread.postList.selectedItem?.media.text == Self.replyText(count, of: count))
            // and the post's counts say as many
            await Self.press(.character("g"), in: session)
            #expect(
                selectedCounts(HeadlessHarness.frame(of: session))?.replies == count,
                "\(app.id): ↩ \(count)\n\(HeadlessHarness.frame(of: session))")
            await Self.press(.escape, in: session)
            #expect(shell.currentScreen === profile)
        }
    }

    // MARK: The composer's text limit

    /// Text of exactly `count` characters, starting with `label` (words, so it wraps as text does).
    static func text(_ label: String, count: Int) -> String {
        let filler = String(repeating: " tide", count: count / 5 + 1)
        return String((label + filler).prefix(count))
    }

    /// Opens the composer and pastes `text`, with a photo where the app needs one.
    static func write(_ text: String, app: ShippedApp, shell: AppShell, session: AppSession) async throws {
        await Self.press(.character("n"), in: session)
        try #require(shell.currentScreen is ComposerScreen, "\(app.id): the composer opens")
        _ = shell.handle(.paste(text))
        if app.requiresPhoto {
            try TestPhotos.attachSample(in: shell)
        }
    }

    /// After enter on a text the composer refuses: the status line says `refusal` (or its start,
    /// cut by the screen), the composer and the text are kept, nothing is sent. Then the draft is
    /// dropped and the composer left, for the next text.
    static func expectRefused(
        _ refusal: String, frame: String, app: ShippedApp, shell: AppShell, session: AppSession
    ) async {
        let status = DeleteScenarios.status(frame)
        #expect(
            status == refusal || (status.hasSuffix("…") && refusal.hasPrefix(status.dropLast())),
            "\(app.id):\n\(frame)")
        #expect(shell.currentScreen is ComposerScreen)
        #expect(shell.context.manager.pending.isEmpty && shell.context.manager.failed.isEmpty)
        _ = shell.handle(.control("d"))
        await Self.press(.control("d"), in: session)
        await Self.press(.escape, in: session)
        #expect(shell.currentScreen is FeedScreen)
    }

    /// After enter on a text the composer takes: back on Home, the post whole and once on top,
    /// and confirmed by the server.
    static func expectPostedOnTop(
        _ text: String, feed: FeedScreen, frame: String, app: ShippedApp, shell: AppShell
    ) throws {
        #expect(shell.currentScreen is FeedScreen, "\(app.id): back on Home:\n\(frame)")
        let top = try #require(feed.items.first)
        #expect(
            top.media.text == text,
            "\(app.id): \(top.media.text.count) characters, \(top.media.text.utf8.count) bytes on top")
        #expect(feed.items.filter { $0.media.text == text }.count == 1)
        #expect(shell.context.manager.pending.isEmpty)
        #expect(shell.context.manager.failed.isEmpty, "\(app.id):\n\(frame)")
        #expect(top.isConfirmed, "\(app.id): the server took \(text.count) characters")
    }

    @Test(arguments: ShippedApp.withHome)
    func theComposersTextLimit_refusesOneOver_andPostsAtTheLimitAndOneUnder(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let limit = app.textLimit

        for count in [limit + 1, limit, limit - 1] {
            // When the person writes `count` characters (with a photo where one is needed) and posts
            let text = Self.text("Limit \(count) of \(limit)", count: count)
            #expect(text.count == count)
            try await Self.write(text, app: app, shell: shell, session: session)
            let counter = lines(HeadlessHarness.frame(of: session)).filter {
                $0.trimmingCharacters(in: .whitespaces) == "\(count)/\(limit)"
            }
            #expect(counter.count == 1, "\(app.id): the counter reads \(count)/\(limit)")
            await Self.press(.enter, in: session)
            let frame = HeadlessHarness.frame(of: session)

            if count > limit {
                // Then one over is refused in words, the composer and the text kept, nothing sent
                await Self.expectRefused(
                    "✕ text is 1 character over the limit of \(limit)", frame: frame, app: app, shell: shell,
                    session: session)
                continue
            }
            // Then at the limit and under it the post is on the server, whole, and tops Home once
            try Self.expectPostedOnTop(text, feed: feed, frame: frame, app: app, shell: shell)
            for record in shell.context.manager.failed { try shell.context.manager.discard(record.token) }
            await session.settle()
        }
    }

    // MARK: The limits on bytes and marks every app shares

    /// A character of 49 bytes: a family emoji (25) carrying eight enclosing circles (3 each),
    /// as many combining marks as one character may carry.
    static let heavyCharacter =
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        + String(repeating: "\u{20DD}", count: 8)

    /// Text of exactly `bytes` bytes (UTF-8) in few characters: heavy ones, then letters.
    static func text(bytes: Int) -> String {
        String(repeating: heavyCharacter, count: bytes / 49) + String(repeating: "a", count: bytes % 49)
    }

    /// The post limits every app shares (PostLimits): a text of 16,384 bytes is posted and the
    /// server takes it; one byte more, or a character with nine combining marks, is refused by
    /// the composer in words, before anything is sent. The byte limit is met here well under
    /// each app's character limit, with heavy characters.
    @Test(arguments: ShippedApp.withHome)
    func theSharedByteAndMarkLimits_postAtTheLimit_andRefuseOneOver(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let zalgo = "Piled " + "e" + String(repeating: "\u{0301}", count: 9) + " high"
        let cases: [(text: String, refusal: String?)] = [
            (Self.text(bytes: 16_385), "✕ text: 16385 bytes (UTF-8) is over the limit of 16384"),
            (
                zalgo,
                "✕ text: character 7 of the text carries 9 combining marks, over the limit of 8 per character"
            ),
            (Self.text(bytes: 16_384), nil),
        ]
        for (text, refusal) in cases {
            #expect(text.count <= app.textLimit, "\(app.id): \(text.count) characters")
            // When the person writes the text (with a photo where one is needed) and posts
            try await Self.write(text, app: app, shell: shell, session: session)
            await Self.press(.enter, in: session)
            let frame = HeadlessHarness.frame(of: session)

            if let refusal {
                // Then it is refused in words, the composer and the text kept, nothing sent
                await Self.expectRefused(refusal, frame: frame, app: app, shell: shell, session: session)
                continue
            }
            // Then at the limit the post is on the server, whole, and tops Home once
            try Self.expectPostedOnTop(text, feed: feed, frame: frame, app: app, shell: shell)
        }
    }

    // MARK: Find people's search text

    /// The longest search text the server takes.
    static let searchLength = 100

    @Test(arguments: ShippedApp.all)
    func findPeople_takesTextUpToTheSearchLimit_andNeverFailsPastIt(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        await Self.press(.character("/"), in: session)
        let people = try #require(shell.currentScreen as? PeopleScreen)

        // When the person types a name one under the limit, at it, and one over
        let typed = "k" + String(repeating: "a", count: Self.searchLength)
        for count in [Self.searchLength - 1, Self.searchLength, Self.searchLength + 1] {
            let before = people.text.count
            for character in typed.dropFirst(before).prefix(count - before) {
                _ = shell.handle(.character(character))
            }
            await session.settle()
            let frame = HeadlessHarness.frame(of: session)

            // Then up to the limit the text is searched and matches nobody; past it the field
            // keeps the limit and the search still answers: never a failure
            let kept = min(count, Self.searchLength)
            #expect(
                people.text == String(typed.prefix(kept)), "\(app.id): \(people.text.count) characters kept")
            #expect(people.found.isEmpty)
            let note = lines(frame)[3].trimmingCharacters(in: .whitespaces)
            #expect(
                note.hasPrefix("no account matches 'kaaa"), "\(app.id) with \(count) typed:\n\(frame)")
            #expect(!frame.contains("could not search"), "\(app.id) with \(count) typed:\n\(frame)")
        }

        // And with the text cleared, a name that exists finds its account
        for _ in 0..<Self.searchLength { _ = shell.handle(.backspace) }
        #expect(people.text.isEmpty)
        await PeopleScenarios.type("grace", into: session)
        #expect(people.found.first?.user.handle == "grace")
    }

    // MARK: A line exactly as wide as the screen

    @Test(arguments: ShippedApp.withHome)
    func aWordAsWideAsTheLine_fitsOnIt_andOneMoreCharacterWrapsOnlyThatCharacter(app: ShippedApp) async throws
    {
        // Given photo posts of grace's, each text one word: as wide as a line (the screen less the
        // selection gutter), one narrower and one wider; and where the caption follows the author's
        // handle, as wide as the room after it and one wider
        let width = 80
        let line = width - 1
        let afterHandle = line - "grace ".count
        let widths = [line - 1, line, line + 1] + (app.showsTextPosts ? [] : [afterHandle, afterHandle + 1])
        let words = widths.map { count in
            String(("w\(count)" + String(repeating: "x", count: count)).prefix(count))
        }
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        for word in words.reversed() {
            try await BackendFixtures.post(
                on: backend, as: "grace", text: word, attachmentsJSON: BackendFixtures.photoJSON)
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: width, height: 50)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        #expect(feed.items.prefix(words.count).map(\.media.text) == words)

        for word in words {
            try await Self.select(word, in: feed.postList, session: session)
            let frame = HeadlessHarness.frame(of: session)
            let block = lines(frame).filter { $0.hasPrefix("▌") }.map { String($0.dropFirst()) }
            let first = try #require(block.firstIndex { $0.contains(word.prefix(4)) }, "\(frame)")
            let drawn = block[first]
            let handle = app.showsTextPosts ? "" : "grace "
            switch word.count {
            case ...afterHandle where !app.showsTextPosts:
                // Then a word that fits after the handle is drawn there, whole
                #expect(drawn == handle + word, "\(app.id), \(word.count) columns:\n\(frame)")
            case ...line:
                // Then a word that fits a line is drawn whole on a line of its own
                #expect(drawn == word, "\(app.id), \(word.count) columns:\n\(frame)")
                #expect(handle.isEmpty || block[first - 1] == "grace", "\(app.id): the handle above it")
                #expect(block[first + 1] != "x", "\(app.id): nothing of it wraps")
            default:
                // Then one column more puts exactly the last character on the next line
                #expect(drawn == String(word.dropLast()), "\(app.id), \(word.count) columns:\n\(frame)")
                #expect(block[first + 1] == "x", "\(app.id): '\(block[first + 1])'\n\(frame)")
            }
        }
    }

    // MARK: A profile's pages: two pages, one post less, one more

    /// The posts a profile asks for at a time.
    static let profilePage = 30

    /// The profile of seed user `handle` as the viewer gets it from the server, every post.
    static func serverProfile(of handle: String, on server: BackendServer) async throws -> Profile {
        let index = try #require(BackendSeed.handles.firstIndex(of: handle))
        let response = await server.handle(
            Request(
                .get, "/v1/users/u\(index + 1)", query: [QueryItem("limit", "100")],
                headers: ["Authorization": "Bearer \(server.testToken(forHandle: BackendSeed.firstHandle))"]))
        try #require(response.status == 200)
        let profile = try WireFormat.decode(Profile.self, from: response.body).payload
        try #require(profile.posts.nextCursor == nil, "every post of @\(handle) in one answer")
        return profile
    }

    @Test(arguments: ShippedApp.withHome)
    func aProfileOfTwoPagesAndOneMoreOrLess_showsEveryPostOnce_andEndsOnceAfterTheLast(app: ShippedApp)
        async throws
    {
        // Given a person with one post less than two pages (then, while the app runs, exactly two
        // pages, then one more)
        let page = Self.profilePage
        let handle = "tim"
        let totals = [2 * page - 1, 2 * page, 2 * page + 1]
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let have = try await Self.serverProfile(of: handle, on: backend).posts.entries.count
        try #require(have < totals[0], "@\(handle) has \(have) posts")
        for number in have..<totals[0] {
            try await BackendFixtures.post(
                on: backend, as: handle, text: "\(handle)'s log \(number)")
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let policy = shell.context.registry[.feedPolicy]

        for total in totals {
            let posted = try await Self.serverProfile(of: handle, on: server).posts.entries.count
            if posted < total {
                try await BackendFixtures.post(
                    on: server, as: handle, text: "\(handle)'s log \(posted)")
            }
            #expect(try await Self.serverProfile(of: handle, on: server).posts.entries.count == total)

            // When the person opens the profile and goes to its end
            let profile = try await Self.openProfile(of: handle, in: session)
            let endLine = "✓ That's all of @\(handle)'s posts"
            #expect(profile.items.count <= page, "\(app.id): one page at first")
            #expect(!HeadlessHarness.frame(of: session).contains(endLine), "not before the end")
            await Self.goToTheEnd(of: profile.postList, in: session)

            // Then every post the app lists is there once, in the server's order, the last selected
            let expected = try await Self.serverProfile(of: handle, on: server).posts.entries.filter {
                policy.shows($0.media.kind) || $0.media.kind == .text
            }
            #expect(expected.count <= total)
            #expect(
                profile.items.map(\.id) == expected.map(\.id.rawValue),
                "\(app.id), @\(handle) with \(total) posts: \(profile.items.count) shown of \(expected.count)"
            )
            #expect(profile.postList.selectedIndex == profile.items.count - 1)

            // And the line under the last post says that is all, once, the footer next
            let rows = lines(HeadlessHarness.frame(of: session))
            let markers = rows.indices.filter { rows[$0].contains(endLine) }
            #expect(markers.count == 1, "\(app.id), \(total):\n\(rows.joined(separator: "\n"))")
            if let marker = markers.first, let last = rows.lastIndex(where: { $0.hasPrefix("▌") }) {
                #expect(marker > last, "below the last post")
                #expect(rows[marker + 1].hasPrefix("j/k move"), "the list ends with it, the footer next")
            }
            await Self.press(.escape, in: session)
            await Self.press(.escape, in: session)
            #expect(shell.currentScreen is FeedScreen)
        }
    }

    // MARK: Carousel sizes around the marker's ten dots

    /// The marker line under a carousel showing item `index` (from 0) of `count`: a dot per item,
    /// at most ten, the last standing for every item from the tenth on.
    static func carouselMarker(_ index: Int, of count: Int) -> String {
        let dots = (0..<min(count, 10)).map { $0 == min(index, 9) ? "●" : "○" }.joined(separator: " ")
        return "◂ \(index + 1)/\(count) ▸  \(dots)"
    }

    @Test(arguments: ShippedApp.withHome)
    func carouselsOfOneNineAndTenPhotos_markEveryPlace_andStopAtBothEnds_andElevenAreRefused(
        app: ShippedApp
    ) async throws {
        // Given grace's carousels of 1, 9 and 10 photos (each photo its own colour; 10 is the
        // most a carousel may hold, and 11 are refused by the server)
        let counts = [1, 9, 10]
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        func carousel(_ count: Int) -> String {
            let photos = (0..<count).map { index in
                CarouselScenarios.photo(
                    width: 8, height: 8, rgb: [UInt8(20 * index), UInt8(200 - 15 * index), 90])
            }
            return "[{\"type\": \"carousel\", \"items\": [\(photos.joined(separator: ", "))]}]"
        }
        for count in counts.reversed() {
            try await BackendFixtures.post(
                on: backend, as: "grace", text: "A carousel of \(count)", attachmentsJSON: carousel(count))
        }
        await #expect(throws: (any Error).self, "a carousel of 11 is refused") {
            try await BackendFixtures.post(
                on: backend, as: "grace", text: "A carousel of 11", attachmentsJSON: carousel(11))
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: 60, height: 30)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)

        for count in counts {
            try await Self.select("A carousel of \(count)", in: feed.postList, session: session)
            func marker() -> [String] {
                lines(HeadlessHarness.frame(of: session)).filter { $0.hasPrefix("▌◂ ") }.map {
                    String($0.dropFirst())
                }
            }
            // Then the marker says the first of `count`, once
            #expect(marker() == [Self.carouselMarker(0, of: count)], "\(app.id)")
            // ← at the first says so and changes nothing
            await Self.press(.left, in: session)
            #expect(
                DeleteScenarios.status(HeadlessHarness.frame(of: session))
                    == "first of \(count) in this carousel")
            #expect(marker() == [Self.carouselMarker(0, of: count)])

            // When → goes through every photo, the marker follows: looked at on either side of
            // the tenth dot and at the last
            for index in 1..<count {
                _ = session.shell?.handle(.right)
                guard index >= 8 || index == count - 1 else { continue }
                await session.settle()
                #expect(
                    marker() == [Self.carouselMarker(index, of: count)], "\(app.id), \(index + 1)/\(count)")
            }

            // And one more → at the last says so and stays there
            await Self.press(.right, in: session)
            #expect(
                DeleteScenarios.status(HeadlessHarness.frame(of: session))
                    == "last of \(count) in this carousel")
            #expect(marker() == [Self.carouselMarker(count - 1, of: count)])
            #expect(feed.postList.selectedItem?.media.text == "A carousel of \(count)")
        }
    }

    // MARK: The Sync list, as long as the screen and longer

    @Test(arguments: ShippedApp.withHome)
    func aSyncListLongerThanTheScreen_keepsTheSelectedChangeInView(app: ShippedApp) async throws {
        // Given more changes waiting (offline) than the Sync tab has lines for
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let feed = try #require(shell.currentScreen as? FeedScreen)
        shell.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        let count = 24
        #expect(feed.items.count > 1)
        for _ in 0..<count {
            _ = shell.handle(.character("l"))
            _ = shell.handle(.character("j"))
        }
        await session.settle()
        #expect(shell.context.manager.pending.count == count)
        shell.openTab(.mutations)
        await session.settle()

        // When the person moves down the list to its end (and once more) and back up
        for step in 0..<(count + 1) {
            // Then the selected change is always on screen, with how many are above and below it
            let place = try #require(Self.syncPlace(HeadlessHarness.frame(of: session)), "\(app.id)")
            #expect(place.selected == min(step, count - 1), "\(app.id), step \(step)")
            #expect(place.above + place.shown + place.below == count, "\(app.id), step \(step): \(place)")
            await Self.press(.character("j"), in: session)
        }
        let bottom = try #require(Self.syncPlace(HeadlessHarness.frame(of: session)))
        #expect(bottom.below == 0 && bottom.above > 0, "\(bottom)")
        for _ in 0..<count { await Self.press(.character("k"), in: session) }
        let top = try #require(Self.syncPlace(HeadlessHarness.frame(of: session)))
        #expect(top.selected == 0 && top.above == 0 && top.below > 0, "\(top)")
    }

    /// Where the Sync tab's list is: changes cut off above, shown, cut off below, and the
    /// selected change's place in the whole list; nil when no change is selected on screen.
    static func syncPlace(_ frame: String) -> (above: Int, shown: Int, below: Int, selected: Int)? {
        let rows = lines(frame).map { String($0) }
        func more(_ arrow: String) -> Int {
            rows.compactMap { row -> Int? in
                let words = row.trimmingCharacters(in: .whitespaces).split(separator: " ")
                return words.count == 3 && words[0] == arrow && words[2] == "more" ? Int(words[1]) : nil
            }.first ?? 0
        }
        let changes = rows.filter { $0.hasPrefix(" ⋯ ") || $0.hasPrefix("▌⋯ ") }
        guard let selected = changes.firstIndex(where: { $0.hasPrefix("▌") }),
            changes.filter({ $0.hasPrefix("▌") }).count == 1
        else { return nil }
        let above = more("↑")
        return (above, changes.count, more("↓"), above + selected)
    }
}
