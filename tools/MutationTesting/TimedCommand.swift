import CommandLineKit
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Runs a command (`swift build`, `swift test`) in a process group of its own, with its output
/// going to a file, and ends the whole group when a time limit passes or when asked to.
///
/// CommandLineKit's `Subprocess` waits for a program however long it runs and cannot be
/// stopped from outside; a mutant can make the suite hang, and Ctrl-C must end the build or
/// test it interrupts (with everything they started) before the original file goes back.
public final class TimedCommand: Sendable {
    /// How a command ended.
    public struct Outcome: Sendable, Equatable {
        /// The exit status, or 128 plus the signal's number when a signal ended it.
        public var status: Int32
        /// Whether the time limit ended it.
        public var timedOut: Bool
    }

    private let running = Mutex<pid_t?>(nil)

    /// A runner with no command running.
    public init() {}

    /// Runs `arguments` through `/usr/bin/env` in `directory`, its standard output and error
    /// written to `logFile`, and waits for it; after `timeout` seconds its process group gets
    /// SIGINT (see ``stop(signal:)``), and SIGKILL 10 seconds later.
    ///
    /// - Throws: ``MutationError`` when it cannot be started.
    public func run(
        _ arguments: [String], in directory: String, logFile: String, timeout: Double
    ) throws(MutationError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let command = ["-c", "cd \"$0\" && exec /usr/bin/env \"$@\"", directory] + arguments
        var child: pid_t = 0
        let spawned = running.withLock { running -> Int32 in
            let (pid, result) = Subprocess.spawn("/bin/sh", command, actions: &actions, newProcessGroup: true)
            if result == 0 { running = pid }
            child = pid
            return result
        }
        guard spawned == 0 else {
            throw MutationError(
                "cannot start '\(arguments.joined(separator: " "))': \(String(cString: strerror(spawned)))")
        }
        let pid = child
        let timedOut = Atomic<Bool>(false)
        let deadline = DispatchWorkItem { [self] in
            timedOut.store(true, ordering: .sequentiallyConsistent)
            stop(signal: SIGINT)
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) { [self] in
                if running.withLock({ $0 == pid }) { kill(-pid, SIGKILL) }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
        deadline.cancel()
        running.withLock { $0 = nil }
        // Whatever the command left running in its group goes with it.
        kill(-child, SIGKILL)
        let signal = raw & 0x7F
        let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return Outcome(status: status, timedOut: timedOut.load(ordering: .sequentiallyConsistent))
    }

    /// The kernel's clock, in ticks since boot: the moment to give ``endLeftovers(builtUnder:startedSince:)``.
    public static func ticksSinceBoot() -> UInt64 {
        let uptime = FileManager.default.contents(atPath: "/proc/uptime").flatMap {
            Double(String(decoding: $0, as: UTF8.self).split(separator: " ").first ?? "")
        }
        return UInt64((uptime ?? 0) * Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Ends (SIGKILL) every process running a program built under `directory` that started at
    /// or after `moment` (``ticksSinceBoot()``), other than this one. Called when a suite run is
    /// over, so whatever it started is a leftover: an app a test started in a session of its
    /// own outlives a test process ended at the time limit, and would keep a
    /// core busy for good. Returns the programs ended.
    @discardableResult
    public static func endLeftovers(builtUnder directory: String, startedSince moment: UInt64) -> [String] {
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
        var ended: [String] = []
        let me = getpid()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), pid != me,
                let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/exe"),
                program.hasPrefix(root),
                let stat = FileManager.default.contents(atPath: "/proc/\(name)/stat"),
                let started = startTime(inStat: String(decoding: stat, as: UTF8.self)), started >= moment
            else { continue }
            if kill(pid, SIGKILL) == 0 { ended.append(program) }
        }
        return ended
    }

    /// When a process started, in ticks since boot, from its `/proc/<pid>/stat` line (`pid
    /// (name) state ppid …`, the 22nd field; the name may hold spaces and parentheses, so fields
    /// are counted after the last ')').
    static func startTime(inStat line: String) -> UInt64? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Sends `signal` to the running command's whole process group (nothing when none runs).
    ///
    /// SIGINT is what ends `swift test` with its test process: SwiftPM starts the test binary in a
    /// process group of its own and passes SIGINT on to it, but on SIGTERM it exits and leaves
    /// the tests running.
    public func stop(signal: Int32 = SIGINT) {
        running.withLock { running in
            if let pid = running { kill(-pid, signal) }
        }
    }
}
