import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Testing
import Wire

/// Lists longer than the screen walked to both ends, in a terminal 12 rows high: Activity, Sync
/// with 16 changes waiting, and
/// Find people with a letter that finds more accounts than the 6 rows that show, in every app
/// that has them. After every key exactly one row is
/// selected and it is on screen; `G` selects the row that `j` pressed until nothing moves
/// reaches, and `g` the row `k` reaches; keys past an end change nothing.
@Suite @MainActor struct ListEndsScenarios {
    static let (width, height) = (80, 12)

    /// The selected rows of a frame's body (under the title bar, above the footers).
    static func selectedRows(_ frame: String) -> [String] {
        Array(lines(frame).dropFirst(2).dropLast(2)).filter { $0.hasPrefix("▌") }.map(String.init)
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
