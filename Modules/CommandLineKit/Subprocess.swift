import Foundation
import Glibc

/// Runs a program to completion and collects what it wrote, with `posix_spawn`.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3.1) copies each `/proc/self/fd` entry's whole
/// 256-byte name and can read past the end of a page, which crashes a process with many open
/// descriptors (a full `swift test`, say). This spawns directly instead: the child gets a pipe
/// for standard output, another for standard error, and no other descriptor of this process.
///
/// ```swift
/// let result = try Subprocess.run("/usr/bin/env", ["swift", "package", "dump-package"])
/// guard result.status == 0 else { throw LintError(result.errorText) }
/// ```
public enum Subprocess {
    /// What a finished program left behind.
    public struct Result: Sendable {
        /// The exit status, or 128 plus the signal's number when a signal ended it.
        public var status: Int32
        /// Everything it wrote to standard output.
        public var output: Data
        /// Everything it wrote to standard error.
        public var errors: Data

        /// Standard error as text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Why a program could not be started.
    public struct SpawnError: Error, Sendable, CustomStringConvertible {
        /// What failed, naming the program.
        public let description: String
    }

    /// Runs `executable` (a path) with `arguments`, in this process's environment, and waits for
    /// it to exit, reading both of its outputs as they come (so neither can fill and block it).
    ///
    /// - Throws: `SpawnError` when the program cannot be started.
    public static func run(_ executable: String, _ arguments: [String]) throws(SpawnError) -> Result {
        let out = try pipe()
        let err: (read: Int32, write: Int32)
        do { err = try pipe() } catch {
            close(out.read)
            close(out.write)
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        let (child, spawned) = spawn(executable, arguments, actions: &actions)
        close(out.write)
        close(err.write)
        guard spawned == 0 else {
            close(out.read)
            close(err.read)
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        let (output, errors) = drain(out.read, err.read)
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
        // Exited: the status in bits 8-15; killed: the signal in bits 0-6.
        let signal = raw & 0x7F
        let status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return Result(status: status, output: output, errors: errors)
    }

    /// Starts `executable` with `arguments` in `environment` (`NAME=value` entries; nil: this
    /// process's) and the file `actions`
    /// given, with no other descriptor of this process (beyond 2), every signal back to its
    /// default action and none blocked: a child must not inherit what this process ignores
    /// (SIGPIPE in a server, say). With `newProcessGroup` the child leads a process group of its
    /// own (a signal to `-pid` reaches it and its children; a terminal's job control sees it as a
    /// job). Returns the child's pid, and `posix_spawn`'s error (0 when it started); the caller
    /// reaps the child.
    public static func spawn(
        _ executable: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t,
        newProcessGroup: Bool = false, environment: [String]? = nil
    ) -> (pid: pid_t, error: Int32) {
        _ = addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        guard let environment else {
            let error = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
            return (child, error)
        }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let error = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        return (child, error)
    }

    /// A pipe whose ends are closed on exec (the child gets them only through `dup2`).
    private static func pipe() throws(SpawnError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw SpawnError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Reads both descriptors to their ends, whichever has data first, then closes them.
    private static func drain(_ first: Int32, _ second: Int32) -> (Data, Data) {
        var collected = [Data(), Data()]
        var open = [first, second]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while open.contains(where: { $0 >= 0 }) {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for index in open.indices where open[index] >= 0 && descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(open[index], $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[index].append(contentsOf: chunk[0..<count])
                } else if count == 0 || errno != EINTR {
                    close(open[index])
                    open[index] = -1
                }
            }
        }
        return (collected[0], collected[1])
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), looked up at run time
    /// because the Glibc module does not import GNU extensions; nil where glibc lacks it. Also
    /// used by the crash tests' spawner, which keeps its child running.
    package static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
            guard
                let symbol = dlsym(
                    UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
        }()
}
