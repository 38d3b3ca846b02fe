import CommandLineKit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `backend-server` process whose standard output is a pipe this test holds, so the test can
/// stop reading it (`closeOutput()`) the way `backend-server | head -1` does. Started with
/// `posix_spawn` (no Foundation `Process` inside the test process); standard error is drained
/// on a thread of its own.
public final class PipedServerProcess: Sendable {
    /// The path of `backend-server`, built next to the test bundle (a test target that runs it
    /// depends on the `backend-server` target).
    public static var backendServerPath: String { siblingExecutable("backend-server") }

    /// The path of executable product `name`, built next to the test bundle (a test target that
    /// runs it depends on its target).
    public static func siblingExecutable(_ name: String) -> String {
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = (bundle as NSString).deletingLastPathComponent
        // On some platforms the bundle's executable sits inside <name>.xctest/Contents/MacOS.
        while directory.contains(".xctest") { directory = (directory as NSString).deletingLastPathComponent }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// The child's process id.
    public let pid: pid_t
    private let outputRead: Mutex<Int32>
    private let status = Mutex<Int32?>(nil)
    /// What the server wrote to standard error so far (the last 4 KiB), for failure messages.
    private let errorText = Mutex("")

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `path` with `arguments`.
    public init(_ path: String, _ arguments: [String]) throws {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        guard pipe(&err) == 0 else {
            close(out[0])
            close(out[1])
            throw Failure(description: "pipe failed: errno \(errno)")
        }
        for descriptor in out + err { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        // The child starts with every signal at its default and none blocked, whatever this
        // process blocks (a script that traps SIGINT must get it), and no other descriptor.
        let (child, result) = Subprocess.spawn(path, arguments, actions: &actions)
        close(out[1])
        close(err[1])
        guard result == 0 else {
            close(out[0])
            close(err[0])
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        pid = child
        outputRead = Mutex(out[0])
        let errorRead = err[0]
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(errorRead, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                self.errorText.withLock { text in
                    text += String(decoding: chunk[0..<count], as: UTF8.self)
                    if text.utf8.count > 4096 { text = String(text.suffix(2048)) }
                }
            }
            close(errorRead)
        }.start()
    }

    /// Reads standard output until a line starting with `prefix` arrives (or the output ends,
    /// or 60 s pass) and returns that line.
    public func readLine(startingWith prefix: String) throws -> String {
        try outputRead.withLock { descriptor -> String in
            var text = ""
            var byte: UInt8 = 0
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let count = read(descriptor, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { break }
                if byte == 0x0A {
                    if text.hasPrefix(prefix) { return text }
                    text = ""
                } else {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                }
            }
            let errors = errorText.withLock { $0 }
            throw Failure(
                description: "backend-server printed no line starting with '\(prefix)'"
                    + (errors.isEmpty ? "" : "; its standard error: \(errors)"))
        }
    }

    /// Closes the read end of standard output: from now on every write to it fails with EPIPE.
    public func closeOutput() {
        outputRead.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// Sends `signal` to the child if it is still running.
    public func kill(_ signal: Int32) {
        if isRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Waits for the child to exit and returns its exit code, or 128 + the signal that ended it.
    public func waitForExit() -> Int32 {
        let raw = status.withLock { status -> Int32 in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
            return raw
        }
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    deinit {
        kill(SIGKILL)
        _ = waitForExit()
        closeOutput()
    }

    /// The child's resident memory in KiB (`VmRSS` in /proc), or nil once it is gone.
    public var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Opens a connection to `127.0.0.1:port` and sends `bytes` on it without reading; returns
    /// the socket (to close later), or -1. A send the server refuses (it closed) is not an error.
    public static func open(_ bytes: [UInt8], port: Int) -> Int32 {
        let fd = connectLoopback(port: port)
        guard fd >= 0 else { return -1 }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            sent += count
        }
        return fd
    }

    private static func connectLoopback(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Sends one request on a connection of its own to `127.0.0.1:port` and returns what came
    /// back before the server closed the connection (empty when it could not connect).
    public static func exchange(_ request: String, port: Int) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return "" }
        let bytes = Array(request.utf8)
        guard
            bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
        else { return "" }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
