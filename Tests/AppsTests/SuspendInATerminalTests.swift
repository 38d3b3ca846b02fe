import AppTesting
import CommandLineKit
import Foundation
import Glibc
import TerminalUI
import TerminalUITesting
import Testing

/// Ctrl-Z in a real terminal: the app binary runs on a pseudo-terminal in a process of its own,
/// stops when the key is typed, and draws its whole frame again when continued.
@Suite struct SuspendInATerminalTests {
    /// An executable product built next to the running test bundle (`swift build` makes it).
    static func siblingExecutable(_ name: String) -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        while directory.contains(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// Reads what the app wrote until `text` shows (the deadline only detects a hang).
    static func read(_ pty: PseudoTerminal, until text: String, within limit: Duration = .seconds(60))
        -> String
    {
        var output = ""
        let deadline = ContinuousClock.now + limit
        while !output.contains(text) && ContinuousClock.now < deadline {
            output += pty.readOutput(waitingUpTo: 200)
        }
        return output
    }

    /// Waits for a change of `pid`'s state that `flags` asks about (a stop, a continue, an
    /// exit) and returns the raw status; nil when none comes before the deadline.
    static func waitForState(of pid: pid_t, flags: Int32, within limit: Duration = .seconds(60)) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            let result = waitpid(pid, &status, flags | WNOHANG)
            if result == pid { return status }
            if result < 0 && errno != EINTR { return nil }
            usleep(10_000)
        }
        return nil
    }

    /// Starts the executable at `path` with `arguments` on `pty` (its standard input, output and
    /// error), in a process group of its own with every signal at its default action; returns
    /// its process id.
    static func spawn(_ path: String, _ arguments: [String], on pty: PseudoTerminal) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, pty.terminal, target) }
        let environment = ["TERM=xterm-256color", "HOME=\(NSTemporaryDirectory())", "PATH=/usr/bin:/bin"]
        let (pid, error) = Subprocess.spawn(
            path, arguments, actions: &actions, newProcessGroup: true, environment: environment)
        try #require(error == 0)
        return pid
    }

    @Test func controlZ_stopsTheApp_withTheTerminalPutBack_andContinuingRedrawsTheFrame() throws {
        // Any app: suspending is the shared runner's. One whose feed shows text first: photo art
        // decoded after the launch would redraw rows while the test reads the terminal.
        let app = try #require(ShippedApp.first { !$0.requiresPhoto } ?? ShippedApp.all.first)
        let path = Self.siblingExecutable(app.id)
        try #require(FileManager.default.isExecutableFile(atPath: path), "build the apps first: \(path)")
        let directories = try TestDirectories.make()
        let pty = try PseudoTerminal()
        let pid = try Self.spawn(
            path, ["--data-dir", directories.data, "--backend-dir", directories.backend, "--user", "ada"],
            on: pty)
        var reaped = false
        defer {
            if !reaped {
                kill(pid, SIGKILL)
                _ = Self.waitForState(of: pid, flags: 0)
            }
        }
        let leave = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h\u{1B}[?2004h"
        let title = " · Home"  // the title bar (its two halves have styles of their own)

        let first = Self.read(pty, until: title)
        try #require(first.hasPrefix(enter), "the app entered the terminal with bracketed paste on")
        try #require(first.contains(title), "the first frame: \(first.debugDescription)")
        _ = pty.readOutput(waitingUpTo: 200)  // the rest of the first frames

        pty.type([0x1A])
        let stopped = try #require(Self.waitForState(of: pid, flags: WUNTRACED), "the app did not stop")
        #expect(stopped & 0xFF == 0x7F, "stopped (raw status \(stopped))")
        #expect(Self.read(pty, until: leave).hasSuffix(leave), "the terminal was put back before the stop")

        kill(pid, SIGCONT)
        let continued = try #require(Self.waitForState(of: pid, flags: WCONTINUED), "no continue")
        #expect(continued == 0xFFFF)
        let again = Self.read(pty, until: title)
        #expect(again.hasPrefix(enter), "raw mode, the alternate screen and bracketed paste again")
        #expect(again.contains(title), "the whole frame is drawn again, unchanged lines included")

        pty.type(Array("q".utf8))
        let exited = try #require(Self.waitForState(of: pid, flags: 0), "the app did not quit")
        reaped = true
        #expect(exited == 0, "exit status 0 (raw status \(exited))")
    }
}
