import AppRuntime
import AppTesting
import CommandLineKit
import Foundation
import Glibc
import TerminalUI
import TerminalUITesting
import Testing

/// A second app on a data directory another one holds, in a real terminal: it says why and
/// exits without ever switching the terminal to the app's screen (no flash of an empty frame).
@Suite struct LockedDataDirectoryInATerminalTests {
    @Test func aLockedDataDirectory_isRefused_beforeTheScreenIsTaken() throws {
        let app = try #require(ShippedApp.all.first)
        let path = AppInATerminal.executable(app.id)
        try #require(FileManager.default.isExecutableFile(atPath: path), "build the apps first: \(path)")
        let directories = try TestDirectories.make()
        try FileManager.default.createDirectory(atPath: directories.data, withIntermediateDirectories: true)
        // Given the data directory held (by this process, as a running app holds it)
        let held = try DataDirectoryLock.acquire(directory: directories.data, app: "holder")
        defer { withExtendedLifetime(held) {} }

        // When the app starts on it in a terminal
        let pty = try PseudoTerminal()
        let pid = try AppInATerminal.spawn(
            path, ["--data-dir", directories.data, "--backend-dir", directories.backend, "--user", "ada"],
            on: pty)
        let output = AppInATerminal.read(pty, until: "error", within: .seconds(60))
        let status = AppInATerminal.waitForState(of: pid, flags: 0, within: .seconds(30))
        let rest = output + pty.readOutput(waitingUpTo: 200)

        // Then it says why, exits 1, and never took the screen
        #expect(rest.contains("error"), "\(rest.debugDescription)")
        #expect(status.map { ($0 >> 8) & 0xFF } == 1, "exit status: \(String(describing: status))")
        #expect(!rest.contains("\u{1B}[?1049h"), "the alternate screen flashed: \(rest.debugDescription)")
    }
}
