import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import Sockets
import TerminalUI
import Testing

/// The Activity tab as a person uses it: it loads, newest first, and a like of the viewer's post
/// made a moment ago is the first line.
@Suite @MainActor struct ActivityScenarios {
    @Test(arguments: ShippedApp.withActivity)
    func activity_listsTheViewersEventsNewestFirst_withAFreshLikeOnTop(app: ShippedApp) async throws {
        // Given a post of the viewer's that another account liked just now
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let viewer = BackendSeed.firstHandle
        let post = try await BackendFixtures.post(on: backend, as: viewer, text: "Tide tables for \(app.id)")
        try await BackendFixtures.like(on: backend, as: "grace", post)
        backend.close()

        // When the viewer opens Activity
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: directories, height: 30)
        session.shell?.openTab(.activity)
        await session.settle()
        let frame = HeadlessHarness.frame(of: session)
        await session.stop()

        // Then it shows events, not an error, and the fresh like is the first of them
        #expect(!frame.contains("could not load"), "\(app.id)'s Activity:\n\(frame)")
        // An event row: the selection bar or a space, then the event's glyph and its actor.
        let rows = frame.split(separator: "\n").map(String.init).filter { line in
            ["▌", " "].contains(line.first.map(String.init)) && line.contains(" (@")
        }
        #expect(rows.count >= 10, "\(app.id) lists the seed's events too:\n\(frame)")
        let first = try #require(rows.first)
        #expect(
            first.contains("(@grace) liked your post: \"Tide tables for \(app.id)\""), "first row: \(first)")
        #expect(rows.dropFirst().allSatisfy { !$0.contains("Tide tables") }, "the like is listed once")
    }

    /// The rows of Activity in `frame`: the selection bar or a space, then an event and its actor.
    static func rows(_ frame: String) -> [String] {
        frame.split(separator: "\n").map(String.init).filter { line in
            ["▌", " "].contains(line.first.map(String.init)) && line.contains(" (@")
        }
    }

    /// A row too long for the screen cuts the quote of the post, never who did it, what they did
    /// or when.
    @Test(arguments: ShippedApp.withActivity)
    func aLongRow_cutsTheQuote_keepingWhoWhatAndWhen(app: ShippedApp) async throws {
        // Given a long post of the viewer's that @grace liked just now
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let words = "A long afternoon of tide tables, harbour charts and notes on the weather for \(app.id)"
        let post = try await BackendFixtures.post(on: backend, as: BackendSeed.firstHandle, text: words)
        try await BackendFixtures.like(on: backend, as: "grace", post)
        backend.close()

        for width in [80, 50] {
            // When Activity is shown that wide
            let (session, _) = try await HeadlessHarness.session(
                app.definition, directories: directories, width: width, height: 20)
            session.shell?.openTab(.activity)
            await session.settle()
            let frame = HeadlessHarness.frame(of: session)
            await session.stop()

            // Then the like's row names Grace and the like, cuts the quote, and ends with its age
            let first = try #require(Self.rows(frame).first, "\(app.id) at \(width):\n\(frame)")
            #expect(first.contains("(@grace) liked your post"), "\(app.id) at \(width): \(first)")
            #expect(first.contains(": \"A") && first.contains("…"), "the quote is cut: \(first)")
            #expect(first.hasSuffix(" · now"), "\(app.id) at \(width) keeps when: \(first)")
        }
    }

    /// Enter opens what a row is about: the post, or for a new follower, their profile. g and G
    /// (home and end) jump to the ends, and the help lists them with pgdn and pgup.
    @Test(arguments: ShippedApp.withActivity)
    func aFollowRow_opensTheFollower_andTheEndsAreAKeyAway(app: ShippedApp) async throws {
        // Given a new account that just followed the viewer
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        try await BackendFixtures.createAccount(
            on: backend, handle: "new_follower", displayName: "Nell Follower")
        try await BackendFixtures.follow(on: backend, as: "new_follower", BackendSeed.firstHandle)
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        shell.openTab(.activity)
        await session.settle()
        let rows = Self.rows(HeadlessHarness.frame(of: session))
        try #require(rows.first?.contains("Nell Follower (@new_follower) followed you") == true, "\(rows)")

        // When G, then g, are pressed
        _ = shell.handle(.character("G"))
        let bottom = Self.rows(HeadlessHarness.frame(of: session))
        #expect(bottom.last?.hasPrefix("▌") == true, "\(app.id) G selects the last row: \(bottom.suffix(2))")
        #expect(bottom.first?.hasPrefix("▌") == false, "\(app.id) and scrolls to it")
        _ = shell.handle(.end)
        #expect(Self.rows(HeadlessHarness.frame(of: session)) == bottom, "end does as G")
        _ = shell.handle(.character("g"))
        let top = Self.rows(HeadlessHarness.frame(of: session))
        #expect(
            top.first?.hasPrefix("▌") == true && top.first?.contains("new_follower") == true,
            "\(top.first ?? "")")

        // Then Enter on the follow opens the follower's profile
        _ = shell.handle(.enter)
        await session.settle()
        let profile = HeadlessHarness.frame(of: session)
        #expect(shell.currentScreen is ProfileScreen, "\(app.id):\n\(profile)")
        #expect(profile.contains("@new_follower"), "\(app.id):\n\(profile)")

        // And the help lists the keys
        _ = shell.handle(.escape)
        _ = shell.handle(.character("?"))
        let help = HeadlessHarness.frame(of: session)
        #expect(help.contains("g G home end"), "\(app.id):\n\(help)")
        #expect(help.contains("pgdn pgup"), "\(app.id):\n\(help)")
    }
}
