import AppRuntime
import AppTesting
import CommandLineKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two apps on one data directory refused each other's changes (the journal's next sequence
/// lives in memory): the second one now says which process holds the directory and exits 1.
@Suite @MainActor struct DataDirectoryLockScenarios {
    @Test(arguments: ShippedApp.all)
    func aSecondSessionOnOneDataDirectory_isRefusedNamingTheHolder(app: ShippedApp) async throws {
        // Given a running session on a data directory
        let directories = try TestDirectories.make()
        let (first, _) = try await HeadlessHarness.session(app.definition, directories: directories)

        // When a second session launches on the same directory
        let refusal = await #expect(throws: DataDirectoryLockError.self) {
            _ = try await HeadlessHarness.session(app.definition, directories: directories)
        }

        // Then it is refused in plain words, naming this process as the holder
        #expect(
            refusal?.description
                == "the data directory '\(directories.data)' is in use by another app (process \(getpid())); quit "
                + "that one first, or pass --data-dir with another directory (two apps on one directory would "
                + "refuse each other's changes)")

        // and once the first stops, the directory is free again
        await first.stop()
        let (second, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        await second.stop()
    }

    @Test(arguments: ShippedApp.all)
    func aSecondHeadlessRun_exitsOne_whileDescribeStillRuns(app: ShippedApp) async throws {
        // Given a running session on a data directory
        let directories = try TestDirectories.make()
        let (first, _) = try await HeadlessHarness.session(app.definition, directories: directories)

        // When the app is run again on that directory
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(
            app.definition,
            arguments: ["--headless", "--data-dir", directories.data, "--backend-dir", directories.backend],
            output: output, standardInput: { nil })

        // Then it exits 1 saying who holds the directory, and draws nothing
        #expect(status == 1)
        #expect(output.error.contains("is in use by another app (process \(getpid()))"), "\(output.error)")
        #expect(output.output.isEmpty, "\(output.output)")

        // while --describe, which does not open the data directory, still runs
        let described = CapturedTextOutput()
        let describeStatus = await AppLauncher.run(
            app.definition, arguments: ["--describe", "--data-dir", directories.data], output: described)
        #expect(describeStatus == 0, "\(described.error)")
        await first.stop()
    }
}
