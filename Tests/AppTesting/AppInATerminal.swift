import CommandLineKit
import Foundation
import Glibc
import TerminalUITesting
import Testing

/// An app's executable run as a person runs it: in a process of its own on a pseudo-terminal,
/// read and typed into from the controlling side.
package enum AppInATerminal {
    /// The executable product `name` built next to the running test bundle (`swift build` makes
    /// it; so does `swift test`).
    package static func executable(_ name: String) -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        while directory.contains(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// Reads what the app wrote until `text` shows (the deadline only detects a hang).
    package static func read(_ pty: PseudoTerminal, until text: String, within limit: Duration = .seconds(60))
        -> String
    {
        var output = ""
        let deadline = ContinuousClock.now + limit
        while !output.contains(text) && ContinuousClock.now < deadline {
            output += pty.readOutput(waitingUpTo: 200)
        }
        return output
    }

    /// Reads what the app writes for `duration`, however much or little it writes.
    @discardableResult
    package static func drain(_ pty: PseudoTerminal, for duration: Duration) -> String {
        var output = ""
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            output += pty.readOutput(waitingUpTo: 50)
        }
        return output
    }

    /// Waits for a change of `pid`'s state that `flags` asks about (a stop, a continue, an
    /// exit) and returns the raw status; nil when none comes before the deadline.
    package static func waitForState(of pid: pid_t, flags: Int32, within limit: Duration = .seconds(60))
        -> Int32?
    {
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
    package static func spawn(_ path: String, _ arguments: [String], on pty: PseudoTerminal) throws -> pid_t {
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

    /// An app's executable started on a new pseudo-terminal with `--data-dir`, `--backend-dir`
    /// and `--user ada`; killed and reaped when released if it has not exited by then.
    package final class Launched {
        /// The terminal it runs on.
        package let pty: PseudoTerminal
        /// Its process id.
        package let pid: pid_t
        /// The terminal's local flags (ICANON, ECHO, ISIG …) before the app started.
        package let flagsBefore: tcflag_t
        private var reaped = false

        /// Starts app `appID` on `directories`.
        package init(_ appID: String, directories: TestDirectories) throws {
            let path = AppInATerminal.executable(appID)
            try #require(FileManager.default.isExecutableFile(atPath: path), "build the apps first: \(path)")
            pty = try PseudoTerminal()
            flagsBefore = pty.localFlags
            pid = try AppInATerminal.spawn(
                path,
                ["--data-dir", directories.data, "--backend-dir", directories.backend, "--user", "ada"],
                on: pty)
        }

        /// Waits for a change of state `flags` asks about (0: the exit, which also reaps it);
        /// the raw status, nil when none came before the deadline.
        package func waitForState(flags: Int32 = 0, within limit: Duration = .seconds(60)) -> Int32? {
            let status = AppInATerminal.waitForState(of: pid, flags: flags, within: limit)
            if flags == 0 && status != nil { reaped = true }
            return status
        }

        deinit {
            if !reaped {
                kill(pid, SIGKILL)
                _ = AppInATerminal.waitForState(of: pid, flags: 0)
            }
        }
    }

    /// The CPU time process `pid` has used so far (user and system, from `/proc/PID/stat`), in
    /// seconds; nil once it is gone.
    package static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return nil
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
