import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import ServerAPI
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// Lists longer than the screen walked to both ends, in a terminal 12 rows high: Activity, Sync
/// with 16 changes waiting, Find people with a letter that finds more accounts than the 6 rows
/// that show, a profile's posts, a thread with 14 replies and the photo picker in a folder of 16
/// photos, in every app that has them. (The help pages, read to the last, are KeyHelpScenarios'.) After
/// every key the selection is on screen (exactly one row of a one-line list; for posts, the
/// oracle's rules: the selected post on screen, every row as high as it draws); `G` selects the
/// row that `j` pressed until nothing moves reaches, and `g` the row `k` reaches; keys past an
/// end change nothing.
@Suite @MainActor struct ListEndsScenarios {
    static let (width, height) = (80, 12)

    /// The selected rows of a frame's body (under the title bar, above the footers).
    static func selectedRows(_ frame: String) -> [String] {
        Array(lines(frame).dropFirst(2).dropLast(2)).map { $0.drop { $0 == " " } }.filter {
            $0.hasPrefix("▌")
        }
        .map(String.init)
    }

    /// Presses `key` and returns the frame.
    static func press(_ key: Key, in session: AppSession) async -> String {
        _ = session.shell?.handle(key)
        await session.settle()
        return HeadlessHarness.frame(of: session)
    }

    /// A list's keys: one row down and up, and (where the list has them) its first and last.
    struct Keys {
        var down = Key.character("j")
        var up = Key.character("k")
        var ends: (first: Key, last: Key)? = (.character("g"), .character("G"))
    }

    /// Walks the list on screen to both ends and checks it at every key; `place` names it.
    static func walkToBothEnds(_ session: AppSession, _ place: String, keys: Keys = Keys()) async throws {
        func selected(_ frame: String, after key: String) throws -> String {
            let rows = selectedRows(frame)
            try #require(
                rows.count == 1, "\(place), after \(key): \(rows.count) selected rows on screen\n\(frame)")
            return rows[0]
        }
        func walk(_ key: Key, from start: String, named name: String) async throws -> String {
            var reached = start
            for step in 1...200 {
                let row = try selected(await press(key, in: session), after: "\(name) \(step)")
                if row == reached { break }
                reached = row
            }
            return reached
        }
        let top = try selected(HeadlessHarness.frame(of: session), after: "opening it")

        // Down until nothing moves: the last row, and the first is no longer on screen
        let last = try await walk(keys.down, from: top, named: "down")
        #expect(
            !HeadlessHarness.frame(of: session).contains(top),
            "\(place): the first row is still on screen at the end: not longer than the screen")
        #expect(
            try selected(await press(keys.down, in: session), after: "down past the end") == last, "\(place)")

        // The ends' own keys reach the same rows
        if let ends = keys.ends {
            #expect(try selected(await press(ends.first, in: session), after: "first") == top, "\(place)")
            #expect(
                try selected(await press(keys.up, in: session), after: "up past the top") == top, "\(place)")
            #expect(try selected(await press(ends.last, in: session), after: "last") == last, "\(place)")
        }

        // Up until nothing moves: the first row again
        let first = try await walk(keys.up, from: last, named: "up")
        #expect(first == top, "\(place): up walked back to \(first), not the first row \(top)")
        #expect(try selected(await press(keys.up, in: session), after: "up past the top") == top, "\(place)")
    }

    /// Walks a list of posts (a profile's, a thread's) to both ends: the selected post is the
    /// list's own (`list.selectedItem`), and after every key the oracle finds nothing wrong.
    static func walkPostsToBothEnds(
        _ session: AppSession, _ list: PostList, _ place: String, app: ShippedApp, posts: Int
    ) async throws {
        let oracle = ScreenOracle(app: app)
        func selected(after key: String) async throws -> String {
            let problems = await oracle.violations(in: session, settled: true)
            try #require(
                problems.isEmpty, "\(place), after \(key): \(problems)\n\(HeadlessHarness.frame(of: session))"
            )
            return try #require(list.selectedItem?.id, "\(place), after \(key): nothing selected")
        }
        /// Presses `key` until neither the selection nor the list moves (a post taller than the
        /// screen scrolls line by line before the next is selected); returns the post reached and
        /// how many times the selection moved.
        func walk(_ key: Character, from start: String) async throws -> (String, moves: Int) {
            var (reached, moves, offset) = (start, 0, list.view.scrollOffset)
            for step in 1...400 {
                _ = await press(.character(key), in: session)
                let post = try await selected(after: "\(key) \(step)")
                // The scroll offset, not the frame: lines of a photo look alike as text.
                if post == reached && list.view.scrollOffset == offset { break }
                if post != reached { moves += 1 }
                (reached, offset) = (post, list.view.scrollOffset)
            }
            return (reached, moves)
        }
        let top = try await selected(after: "opening it")
        let topFrame = HeadlessHarness.frame(of: session)
        let (last, down) = try await walk("j", from: top)
        #expect(down + 1 == posts, "\(place): \(down + 1) posts reached going down, of \(posts)")
        #expect(
            HeadlessHarness.frame(of: session) != topFrame, "\(place): the end shows what the top showed")
        _ = await press(.character("g"), in: session)
        #expect(try await selected(after: "g") == top, "\(place)")
        _ = await press(.character("G"), in: session)
        #expect(try await selected(after: "G") == last, "\(place)")
        let (first, up) = try await walk("k", from: last)
        #expect(
            first == top && up == down,
            "\(place): up walked back \(up) posts to \(first), not \(down) to \(top)")
    }

    @Test(arguments: ShippedApp.all.filter { $0.hasTab(.profile) })
    func profile_walkedToBothEnds(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: Self.width, height: Self.height)
        defer { Task { await session.stop() } }
        let profile = try await HeadlessHarness.openOwnProfile(in: session)
        // As many posts as the profile's header counts, each page loaded on the way down.
        let frame = HeadlessHarness.frame(of: session)
        let count = try #require(
            lines(frame).lazy.compactMap { line in
                line.firstRange(of: " posts · ").flatMap {
                    Int(line[..<$0.lowerBound].split(separator: " ").last ?? "")
                }
            }.first, "\(app.id): no post count in the header\n\(frame)")
        #expect(count > 20, "\(app.id): \(count) posts fit on one page")
        try await Self.walkPostsToBothEnds(
            session, profile.postList, "\(app.id), Profile", app: app, posts: count)
    }

    /// A post of the viewer's with 14 replies by accounts the viewer does not follow (so Home
    /// shows the post on top and none of the replies), opened from Home.
    @Test(arguments: ShippedApp.withHome)
    func thread_manyReplies_walkedToBothEnds(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let strangers = try backend.database.query(
            """
            SELECT handle FROM users WHERE id <> 1 AND id NOT IN (SELECT followee FROM follows WHERE follower = 1)
            ORDER BY id LIMIT 7
            """
        ) { try $0.string(0) }
        try #require(strangers.count == 7)
        let root = try await BackendFixtures.post(
            on: backend, as: BackendSeed.firstHandle, text: "Fourteen answers, please",
            attachmentsJSON: BackendFixtures.photoJSON)
        for index in 0..<14 {
            _ = try await BackendFixtures.reply(
                on: backend, as: strangers[index % 7], to: root, text: "Answer number \(index + 1)")
        }
        backend.close()
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, width: Self.width, height: Self.height)
        defer { Task { await session.stop() } }
        _ = await Self.press(.enter, in: session)
        let thread = try #require(
            session.shell?.currentScreen as? ThreadScreen,
            "\(app.id): enter on Home opened no thread\n\(HeadlessHarness.frame(of: session))")
        try #require(thread.selectedMedia?.id.rawValue == root, "\(app.id): the thread of another post")
        try await Self.walkPostsToBothEnds(
            session, thread.postList, "\(app.id), a thread", app: app, posts: 15)
    }

    /// The composer's photo picker in a folder of 16 photos: its rows (the folder above, then
    /// the photos) walked with the arrow keys.
    @Test(arguments: ShippedApp.withComposer)
    func photoPicker_manyPhotos_walkedToBothEnds(app: ShippedApp) async throws {
        let folder = try TestPhotos.folder()
        for index in 1...16 {
            try TestPhotos.write(String(format: "photo-%02d.jpg", index), in: folder, width: 32, height: 24)
        }
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: Self.width, height: Self.height,
            extraArguments: ["--photos-dir", folder])
        defer { Task { await session.stop() } }
        _ = await Self.press(.character("n"), in: session)
        let frame = await Self.press(.tab, in: session)
        try #require(
            session.shell?.currentScreen is PhotoPickerScreen, "\(app.id): tab opened no picker\n\(frame)")
        try await Self.walkToBothEnds(
            session, "\(app.id), the photo picker", keys: Keys(down: .down, up: .up, ends: nil))
        let last = HeadlessHarness.frame(of: session)
        #expect(Self.selectedRows(last).first?.contains("../") == true, "\(app.id): back on the folder above")
    }

    @Test(arguments: ShippedApp.all.filter { $0.hasTab(.activity) })
    func activity_walkedToBothEnds(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: Self.width, height: Self.height)
        defer { Task { await session.stop() } }
        session.shell?.openTab(.activity)
        await session.settle()
        try await Self.walkToBothEnds(session, "\(app.id), Activity")
    }

    /// Sync with more changes waiting than its rows show: liked offline, one post after another.
    @Test(arguments: ShippedApp.withHome)
    func sync_manyWaitingChanges_walkedToBothEnds(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: Self.width, height: Self.height)
        defer { Task { await session.stop() } }
        session.shell?.context.faultControl?.setFaultProfile(.offline)
        session.networkDidChange()
        for _ in 0..<16 {
            _ = await Self.press(.character("l"), in: session)
            _ = await Self.press(.character("j"), in: session)
        }
        session.shell?.openTab(.mutations)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        try #require(frame.contains("Changes: 16 pending"), "\(app.id):\n\(frame)")
        try await Self.walkToBothEnds(session, "\(app.id), Sync", keys: Keys(ends: nil))
    }

    @Test(arguments: ShippedApp.all)
    func findPeople_manyAccounts_walkedToBothEnds(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make(), width: Self.width, height: Self.height)
        defer { Task { await session.stop() } }
        _ = await Self.press(.character("/"), in: session)
        let people = try #require(
            session.shell?.currentScreen as? PeopleScreen, "\(app.id): / opened no search")
        // A letter that finds more accounts than the screen has rows.
        for letter in "aeljmskdrbct" {
            _ = await Self.press(.character(letter), in: session)
            if people.found.count > 6 { break }
            _ = await Self.press(.backspace, in: session)
        }
        try #require(
            people.found.count > 6, "\(app.id): no letter finds more than the 6 accounts that show")
        try await Self.walkToBothEnds(
            session, "\(app.id), Find people", keys: Keys(down: .down, up: .up, ends: nil))
        let frame = HeadlessHarness.frame(of: session)
        #expect(
            Self.selectedRows(frame).first?.contains("@\(people.found[0].user.handle) ") == true,
            "\(app.id): the first account selected at the top\n\(frame)")
    }
}
