import CommandLineKit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output collected as it arrives.
///
/// The crash tests start hundreds of processes from inside a test process with many open
/// descriptors. Foundation's `Process.run()` on Linux (Swift 6.3.1) can crash in that situation
/// (it copies each `/proc/self/fd` entry's whole 256-byte name and may read past the end of a
/// page), taking the whole `swift test` run down; this spawns directly instead. The child gets
/// one pipe as standard output and another as standard error, and no other descriptor of this
/// process: should the test process die, an orphaned child holds nothing of `swift test`'s.
final class ChildProcess: Sendable {
    /// The child's process id.
    let pid: pid_t
    private let output = Mutex(Data())
    private let errorOutput = Mutex(Data())
    /// The raw `waitpid` status once the child was reaped.
    private let status = Mutex<Int32?>(nil)
    private let readersDone = DispatchSemaphore(value: 0)

    /// Held while pipes are made and a child spawned, so no child of this type inherits
    /// another's pipe in the moment before it is marked close-on-exec.
    private static let spawning = Mutex(())

    /// Starts `path` with `arguments`.
    init(_ path: String, _ arguments: [String]) throws {
        let (child, outRead, errRead) = try Self.spawning.withLock { _ throws -> (pid_t, Int32, Int32) in
            let out = try Self.pipe()
            let err = try Self.pipe()
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, out.write, 1)
            posix_spawn_file_actions_adddup2(&actions, err.write, 2)
            _ = Subprocess.addCloseFrom?(&actions, 3)
            let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var child: pid_t = 0
            let result = posix_spawn(&child, path, &actions, nil, argv, environ)
            close(out.write)
            close(err.write)
            guard result == 0 else {
                close(out.read)
                close(err.read)
                throw SpawnError("cannot start \(path): \(String(cString: strerror(result)))")
            }
            return (child, out.read, err.read)
        }
        pid = child
        for (descriptor, isError) in [(outRead, false), (errRead, true)] {
            let thread = Thread { [self] in
                Self.drain(descriptor) { bytes in
                    if isError {
                        errorOutput.withLock { $0.append(contentsOf: bytes) }
                    } else {
                        output.withLock { $0.append(contentsOf: bytes) }
                    }
                }
                readersDone.signal()
            }
            thread.start()
        }
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard Glibc.pipe(&descriptors) == 0 else { throw SpawnError("pipe failed: errno \(errno)") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    private static func drain(_ descriptor: Int32, _ append: (ArraySlice<UInt8>) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            append(chunk[0..<count])
        }
        close(descriptor)
    }

    /// Whether the child has not exited yet (reaps it when it has).
    var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// Sends `signal` to the child if it is still running.
    func kill(_ signal: Int32) {
        if isRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Waits until the child exits and its output is read to the end, suspending while it runs:
    /// a test blocked in `waitUntilExit` holds one of the cooperative pool's threads (two on 2
    /// cores), and other suites' timers and tasks wait for it.
    func exited() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        waitUntilExit()
    }

    /// Blocks until the child exits and its output is read to the end.
    func waitUntilExit() {
        status.withLock { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
        }
        readersDone.wait()
        readersDone.wait()
        readersDone.signal()  // later calls return at once
        readersDone.signal()
    }

    /// What the child wrote to standard error so far.
    var errors: String { String(decoding: errorOutput.withLock { $0 }, as: UTF8.self) }

    /// The exit code after a normal exit, or 128 + the signal that ended it; nil while running.
    var terminationStatus: Int32? {
        guard let raw = status.withLock({ $0 }) else { return nil }
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    /// Complete lines printed so far.
    func lines() -> [String] {
        let text = String(decoding: output.withLock { $0 }, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // what follows the last newline is not a complete line
        return lines
    }

    /// How many complete lines were printed so far.
    func lineCount() -> Int { output.withLock { data in data.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } } }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
