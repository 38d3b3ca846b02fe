import AppRuntime
import Composition
import Features
import Foundation
import TerminalUI
import Wire

extension HeadlessHarness {
    /// A session of `app` launched as a person's first interactive launch is: no `--headless`, no
    /// `--user` and no saved session, so the real welcome screen is shown and signing in through
    /// it is what the app does next (`--headless` runs skip onboarding). Nothing is drawn to a
    /// terminal; frames come from ``frame(of:)``. The clock and network are the headless ones.
    /// Stop it when done.
    @MainActor
    package static func firstLaunch(
        _ app: AppDefinition, directories: TestDirectories, width: Int = 80, height: Int = 24
    ) async throws -> (session: AppSession, clock: ManualClock) {
        let configuration = try LaunchConfiguration.parse(
            ["--data-dir", directories.data, "--backend-dir", directories.backend],
            app: app.id, environment: ["HOME": NSTemporaryDirectory()], isTerminal: true)
        let clock = ManualClock()
        let session = AppSession(
            definition: app, configuration: configuration, clock: clock,
            networkClock: InstantNetworkClock(base: clock),
            colorMode: .trueColor, width: width, height: height)
        try await session.launch()
        await session.settle()
        return (session, clock)
    }
}
