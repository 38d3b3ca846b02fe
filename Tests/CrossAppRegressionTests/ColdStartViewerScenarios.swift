import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import Sockets
import Storage
import TerminalUI
import Testing
import Wire

/// Who the viewer is, on a cold start from a saved session: the app asks the server, and when
/// that fails it asks again until it knows, so the viewer's own posts stay theirs to delete.
/// Meanwhile the viewer the journal kept for the account stands in.
@Suite @MainActor struct ColdStartViewerScenarios {
    /// A server that answers every request with a 503 while it is restarting.
    static let serverRestarting = FaultProfile(
        name: "server-restarting", failureRate: 1, serverErrorStatus: 503)

    @Test(arguments: ShippedApp.withHome)
    func aColdStartWhoseWhoAmIFails_stillLetsTheViewerDeleteTheirOwnPost(app: ShippedApp) async throws {
        // Given ada's photo post, on the server, and her session saved by the first launch
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let text = "Gulls on the breakwater, \(app.id)"
        session.shell?.context.actions?.submit(
            Draft(text: text, files: [PickedPhoto(path: try TestPhotos.sample())]))
        await session.settle()
        #expect(session.shell?.context.manager.pending.isEmpty == true, "\(app.id): the post is confirmed")

        // When the app starts cold while the server answers every request 503 (so the launch's
        // "who am I" fails), and the server is back a moment later
        session.shell?.context.faultControl?.setFaultProfile(Self.serverRestarting)
        try await session.restart()
        await session.settle()
        let feed = try #require(session.shell?.currentScreen as? FeedScreen, "\(app.id): Home shows")
        #expect(
            feed.items.contains { $0.media.text == text },
            "\(app.id): the first frame shows the saved feed without waiting for the server")
        session.shell?.context.faultControl?.setFaultProfile(.perfect)
        clock.advance(by: .seconds(2))
        await session.settle()

        // Then d on her own post asks to confirm (not "only @ada can delete this post"), and a
        // second d deletes it: gone from Home, the posts around it kept in order
        try await DeleteScenarios.select(text, in: feed.postList, session: session)
        let before = feed.items.map(\.media.text)
        await DeleteScenarios.press(.character("d"), in: session)
        let asked = DeleteScenarios.status(HeadlessHarness.frame(of: session))
        #expect(
            asked.hasPrefix("press d again to delete this post"),
            "\(app.id): d on ada's own post after the cold start says \"\(asked)\"")
        await DeleteScenarios.press(.character("d"), in: session)
        #expect(
            feed.items.map(\.media.text) == before.filter { $0 != text },
            "\(app.id): the post is gone from Home and nothing else moved")
        #expect(session.shell?.context.manager.pending.isEmpty == true, "\(app.id): the delete was sent")
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let live = try server.database.queryFirst(
            "SELECT COUNT(*) FROM posts WHERE deleted = 0 AND json LIKE ?", "%\(text)%"
        ) { try $0.int(0) }
        #expect(live == 0, "\(app.id): the server deleted it")
    }

    @Test(arguments: ShippedApp.all)
    func whileTheServerStaysDown_theAskBacksOff_andSucceedsOnceItIsBack(app: ShippedApp) async throws {
        // Given a cold start while the server answers every request 503
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        session.shell?.context.faultControl?.setFaultProfile(Self.serverRestarting)
        try await session.restart()
        await session.settle()
        let context = try #require(session.shell?.context)
        #expect(!session.viewerIsFromTheServer, "\(app.id): the launch could not ask who the viewer is")
        // (meanwhile the viewer the journal kept stands in: the viewer's own things stay theirs)
        #expect(context.viewer?.handle == BackendSeed.firstHandle, "\(app.id): the kept viewer")

        // When minutes pass with the server still down, then it comes back
        for _ in 0..<6 {
            clock.advance(by: .seconds(30))
            await session.settle()
        }
        #expect(!session.viewerIsFromTheServer, "\(app.id): still not asked while the server is down")
        context.faultControl?.setFaultProfile(.perfect)
        // (the wait has reached its cap of a minute by now)
        clock.advance(by: .seconds(60))
        await session.settle()

        // Then the viewer is known without the person doing anything
        #expect(session.viewerIsFromTheServer, "\(app.id): the server answered")
        #expect(context.viewer?.handle == BackendSeed.firstHandle, "\(app.id): the viewer is @ada again")
    }
}
