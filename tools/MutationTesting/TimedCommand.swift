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
