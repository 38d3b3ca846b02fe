import CommandLineKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Children of the bench, started with `posix_spawn` (Foundation's `Process` on Linux is neither
// cheap nor safe with many descriptors open; see CommandLineKit's `Subprocess`), timed from
// just before the spawn.

struct SpawnFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where this bench binary is, and so the release binaries built beside it.
struct BinaryDirectory {
    /// The directory.
    let path: String
    /// This process's own executable (the bench, to re-spawn in another mode).
    let this: String

    static func ofThisProcess() throws -> BinaryDirectory {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw SpawnFailure("cannot read /proc/self/exe: errno \(errno)") }
        let bytes = buffer[0..<count].map { UInt8(bitPattern: $0) }
        let executable = String(decoding: bytes, as: UTF8.self)
        return BinaryDirectory(path: (executable as NSString).deletingLastPathComponent, this: executable)
    }

    /// The path of a binary built beside this one, or an error saying how to build it.
    func executable(_ name: String) throws -> String {
        let path = self.path + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SpawnFailure(
                "'\(path)' is missing; build it beside bench: swift build -c release --product \(name)")
        }
        return path
    }
}

/// A child started with `posix_spawn`, timed from just before the spawn.
enum Spawn {
    struct Outcome {
        var status: Int32
        /// Seconds from the spawn to the end of the line holding the marker, if it came.
        var frameAt: Double?
        /// Seconds from the spawn to `wait4` returning.
        var exitedAt: Double
        /// User plus system CPU seconds of the child.
        var cpu: Double
        var output: String
        var errors: String
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Starts `path` in the background with its standard output and error appended to the file
    /// `output` and its input from /dev/null, every signal at its default; returns its pid (the
    /// caller stops and reaps it).
    static func start(_ path: String, _ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let (child, result) = Subprocess.spawn(path, arguments, actions: &actions)
        guard result == 0 else {
            throw SpawnFailure("cannot start \(path): \(String(cString: strerror(result)))")
        }
        return child
    }

    /// Runs `path` to its exit, reading its standard output and error as they come; notes when
    /// `frameMarker` first appears on standard output.
    static func run(_ path: String, _ arguments: [String], frameMarker: String?) throws -> Outcome {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw SpawnFailure("pipe failed: errno \(errno)") }
        for descriptor in out + err { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let start = now()
        let (child, result) = Subprocess.spawn(path, arguments, actions: &actions)
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard result == 0 else {
            throw SpawnFailure("cannot start \(path): \(String(cString: strerror(result)))")
        }
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var frameAt: Double?
        let marker = frameMarker.map { Array($0.utf8) }
        var descriptors = [
            pollfd(fd: out[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: err[0], events: Int16(POLLIN), revents: 0),
        ]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var open = 2
        while open > 0 {
            guard poll(&descriptors, 2, -1) > 0 else {
                if errno == EINTR { continue }
                throw SpawnFailure("poll failed: errno \(errno)")
            }
            for index in 0..<2 where descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes {
                    read(descriptors[index].fd, $0.baseAddress, $0.count)
                }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    descriptors[index].fd = -1
                    open -= 1
                    continue
                }
                if index == 0 {
                    output.append(contentsOf: chunk[0..<count])
                    if frameAt == nil, let marker, contains(output, marker) { frameAt = now() - start }
                } else {
                    errors.append(contentsOf: chunk[0..<count])
                }
            }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        let exitedAt = now() - start
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(
            status: exitStatus, frameAt: frameAt, exitedAt: exitedAt, cpu: cpu,
            output: String(decoding: output, as: UTF8.self), errors: String(decoding: errors, as: UTF8.self))
    }

    private static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }
}
