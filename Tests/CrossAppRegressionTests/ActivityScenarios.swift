import AppRuntime
import AppTesting
import Backend
import Features
import Foundation
import Sockets
import Testing

/// The Activity tab as a person uses it: it loads, newest first, and a like of the viewer's post
/// made a moment ago is the first line.
@Suite @MainActor struct ActivityScenarios {
    @Test(arguments: ShippedApp.all)
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
}
