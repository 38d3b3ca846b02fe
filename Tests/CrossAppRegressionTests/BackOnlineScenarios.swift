import AppRuntime
import AppTesting
import Features
import Foundation
import Networking
import ServerAPI
import TerminalUI
import Testing
import Wire

/// The server comes back while nobody asks it anything: the title bar's `offline` goes within
/// a few seconds, not at the next request the person makes (or the event poll's 25 s).
@Suite @MainActor struct BackOnlineScenarios {
    @Test(arguments: ShippedApp.withHome)
    func theOfflineMarker_goesWithinSecondsOfTheServerComingBack(app: ShippedApp) async throws {
        // Given an app that found the server unreachable (a refresh failed)
        let (session, clock) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let network = try #require(shell.context.faultControl)
        network.setFaultProfile(.offline)
        (shell.currentScreen as? FeedScreen)?.refresh()
        await session.settle()
        network.setFaultProfile(.perfect)
        let down = lines(HeadlessHarness.frame(of: session))[0]
        #expect(down.contains("offline"), "\(app.id): \(down)")

        // When the server is back and a few seconds pass, with no key pressed
        for _ in 0..<5 {
            _ = clock.advance(by: .seconds(1))
            await session.settle()
        }

        // Then the marker is gone
        let back = lines(HeadlessHarness.frame(of: session))[0]
        #expect(!back.contains("offline"), "\(app.id): \(back)")
        #expect(!shell.context.network.reachability.isUnreachable)
    }
}
