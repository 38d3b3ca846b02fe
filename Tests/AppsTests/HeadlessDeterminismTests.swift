import AppTesting
import Composition
import Testing

/// Whole headless runs, as a person starts them: every random choice comes from the run's seed,
/// so the same script on fresh data gives the same frames.
@Suite @MainActor struct HeadlessDeterminismTests {
    /// Likes the first post, then shows the Sync tab with the like's attempt (token included).
    static func likeAndShowSync(_ app: ShippedApp) -> String {
        "wait\nkey l\nwait\nkey \(app.syncKey)\nwait\nframe\n"
    }

    @Test(arguments: ShippedApp.withHome)
    func twoFreshRunsOfTheSameScript_printTheSameSyncFrame(app: ShippedApp) async throws {
        // Given two fresh runs of the same script, each on its own fresh directories
        let first = await HeadlessHarness.run(
            app.definition, script: Self.likeAndShowSync(app), directories: try TestDirectories.make())
        let second = await HeadlessHarness.run(
            app.definition, script: Self.likeAndShowSync(app), directories: try TestDirectories.make())

        // Then both succeed, show the like's attempt, and print the same frames, byte for byte
        #expect(first.status == 0)
        #expect(second.status == 0)
        #expect(first.frames.count == 1)
        let attempts = first.lastFrame.split(separator: "\n").filter { $0.contains("  like  ") }
        #expect(attempts.count == 1, "the Sync tab shows the like's one attempt:\n\(first.lastFrame)")
        #expect(first.frames == second.frames)
    }

    @Test(arguments: ShippedApp.withHome)
    func aDifferentSeed_givesDifferentTokens(app: ShippedApp) async throws {
        // Given the same script run with the default seed and with --seed 7, wide enough for the
        // attempt table's change column (its token)
        let standard = await HeadlessHarness.run(
            app.definition, script: Self.likeAndShowSync(app), directories: try TestDirectories.make(),
            width: 100)
        let seven = await HeadlessHarness.run(
            app.definition, script: Self.likeAndShowSync(app), directories: try TestDirectories.make(),
            width: 100,
            extraArguments: ["--seed", "7"])

        // Then both run, and the tokens on the Sync tab differ
        #expect(standard.status == 0)
        #expect(seven.status == 0)
        #expect(standard.lastFrame != seven.lastFrame)
    }
}
