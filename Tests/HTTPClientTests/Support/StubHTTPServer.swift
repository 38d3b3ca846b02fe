import Dispatch
import Foundation
import Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted HTTP peer for transport tests: it accepts connections on 127.0.0.1 (an ephemeral
/// port) and lets each one's `behavior` read the request and answer whatever bytes it likes,
/// or nothing, or close early. Every request head it read is kept in `requests`.
final class StubHTTPServer: Sendable {
    /// One accepted connection, as the behavior sees it.
    final class Connection: Sendable {
        let fd: Int32
        private let server: StubHTTPServer

        fileprivate init(fd: Int32, server: StubHTTPServer) {
            self.fd = fd
            self.server = server
        }

        /// Reads one request (head and `Content-Length` body) and records it; nil at end of stream.
        func readRequest() -> String? {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                if let end = Self.headEnd(bytes) {
                    let head = String(decoding: bytes[0..<end], as: UTF8.self)
                    let length =
                        head.lowercased().components(separatedBy: "\r\n")
                        .first { $0.hasPrefix("content-length:") }
                        .flatMap {
                            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                        } ?? 0
                    if bytes.count >= end + length {
                        let request = String(decoding: bytes[0..<(end + length)], as: UTF8.self)
                        server.record(request)
                        return request
                    }
                }
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return nil }
                bytes += chunk[0..<count]
            }
        }

        /// Writes text.
        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Waits until the client closes its side (a read returns end of stream), at most `limit`.
        func waitForClientClose(limit: Duration = .seconds(5)) -> Bool {
            let (seconds, attoseconds) = limit.components
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var chunk = [UInt8](repeating: 0, count: 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { return true }
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return errno == ECONNRESET }
            }
        }

        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 3..<bytes.count
            where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A
                && bytes[index - 3] == 0x0D
            {
                return index + 1
            }
            return nil
        }
    }

    private let listener: Int32
    let port: Int
    private let received = Mutex<[String]>([])
    private let accepted = Mutex<Int>(0)
    /// Signalled once the accepting thread has closed the listener and ended.
    private let acceptingEnded = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// Starts listening; `behavior` runs on a thread of its own for each connection, and the
    /// connection is closed when it returns.
    init(_ behavior: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(listener)
            throw StubError(description: "the stub server could not listen: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        // The accepting thread alone closes the listener, when `stop()` has shut it down: were it
        // closed from outside, its descriptor number could be reused by another test's listener
        // before this thread first calls accept, and this stub would take that test's connections.
        let thread = Thread { [self] in
            defer {
                Glibc.close(listener)
                acceptingEnded.signal()
            }
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else {
                    let error = errno
                    if stopped.withLock({ $0 }) { return }
                    // Interrupted, or out of descriptors in a loaded run (EMFILE): accept again
                    // (after a pause unless merely interrupted) rather than close a listener that
                    // `stop()` will still shut down.
                    if error != EINTR && error != ECONNABORTED { Thread.sleep(forTimeInterval: 0.01) }
                    continue
                }
                accepted.withLock { $0 += 1 }
                let connection = Connection(fd: fd, server: self)
                let handler = Thread {
                    behavior(connection)
                    Glibc.close(fd)
                }
                handler.start()
            }
        }
        thread.start()
    }

    /// `http://127.0.0.1:PORT`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// How many connections were accepted so far.
    var connectionsAccepted: Int { accepted.withLock { $0 } }

    /// The request heads (and bodies) read so far.
    var requests: [String] { received.withLock { $0 } }

    fileprivate func record(_ request: String) { received.withLock { $0.append(request) } }

    /// Stops accepting and closes the listener (waiting, briefly, for the accepting thread).
    func stop() {
        guard
            !stopped.withLock({ stopped in
                defer { stopped = true }; return stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        _ = acceptingEnded.wait(timeout: .now() + 10)
    }
}

struct StubError: Error, CustomStringConvertible {
    let description: String
}
