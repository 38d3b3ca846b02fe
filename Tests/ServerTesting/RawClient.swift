import Foundation
import SocketTesting
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// A raw-socket HTTP client for tests: sends exact bytes and reads exactly what the server
/// answers, so malformed requests, pipelining and half-finished exchanges can be tested. Every
/// read gives up after `readTimeout` (a test never hangs on a stuck server).
///
/// Reads block, so they run on a thread of their own (`offPool`), never on the concurrency
/// pool's few threads, which other tests running in parallel need.
///
/// `@unchecked Sendable` invariant: a client is used by one test, one call at a time (each
/// awaited before the next), so its buffer is never touched by two threads at once.
public final class RawClient: @unchecked Sendable {
    /// A response as read off the socket.
    public struct RawResponse: Sendable {
        public var status: Int
        public var headers: Headers
        public var body: Data

        public var errorCode: String? { ErrorBody(decoding: body)?.code }
        public var errorMessage: String? { ErrorBody(decoding: body)?.message }
        public var closes: Bool { headers["Connection"]?.lowercased() == "close" }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public private(set) var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    ///
    /// The socket is stored only once connected: a class whose initializer throws after every
    /// property is set still runs `deinit`, which would close the descriptor a second time (and
    /// end whatever another thread had opened under the same number meanwhile).
    ///
    /// `from` is the local address to connect from (another loopback address, such as
    /// `127.0.0.2`, is a second client address on Linux); nil lets the kernel choose.
    public init(port: Int, readTimeout: Duration = .seconds(5), from source: String? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw Failure(description: "cannot bind to \(source): errno \(code)")
            }
        }
        let result = withLoopbackAddress(port: port) { connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port): errno \(code)")
        }
        self.fd = fd
        let (seconds, attoseconds) = readTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Whether connecting to `port` is refused. (To learn whether anything listens on a port
    /// that another test may have taken since, use `PortReservation.nobodyListens(on:)`: a probe
    /// connection would land on that test's server.)
    public static func isRefused(port: Int) -> Bool {
        do {
            _ = try RawClient(port: port)
            return false
        } catch {
            return true
        }
    }

    /// Sends bytes; false when the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Sends text.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A GET with the Host header, a bearer token when given (and `extra` header lines, each
    /// ending in CRLF).
    public static func get(_ target: String, token: String? = nil, extra: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "")
            + "\(extra)\r\n"
    }

    private enum FillOutcome { case read, ended, timedOut }

    /// Reads once; a read that times out (the socket's read timeout) is tried again until
    /// `deadline` passes.
    private func fillOutcome(waitingUntil deadline: Date) -> FillOutcome {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                return .read
            }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return .ended }
            guard Date() < deadline else { return .timedOut }
        }
    }

    /// How long a response that is expected may take: a whole parallel `swift test` run can hold
    /// a server back for longer than the socket's read timeout.
    public static let responseWait: TimeInterval = 60

    /// Runs blocking work on a thread of its own and returns its result.
    public static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Reads one response (framed by `Content-Length`; no body for HEAD when `headOnly`).
    public func readResponse(headOnly: Bool = false) async throws -> RawResponse {
        try await Self.offPool { try self.readResponseNow(headOnly: headOnly) }
    }

    /// Whether the server closes the connection: end of stream (or a reset) before any byte,
    /// waited for up to `responseWait`; false when bytes arrive first or nothing happens in time.
    public func isClosedByServer() async -> Bool {
        (try? await Self.offPool { self.isClosedByServerNow() }) ?? false
    }

    /// Reads and returns whatever arrives until the server closes (waiting up to `responseWait`).
    public func readToEnd() async -> [UInt8] {
        (try? await Self.offPool { self.readToEndNow() }) ?? []
    }

    private func readResponseNow(headOnly: Bool) throws -> RawResponse {
        let deadline = Date().addingTimeInterval(Self.responseWait)
        var headEnd: Int?
        while headEnd == nil {
            if let range = findHeadEnd() {
                headEnd = range
                break
            }
            let outcome = fillOutcome(waitingUntil: deadline)
            guard outcome == .read else {
                let what =
                    outcome == .ended
                    ? "the connection ended" : "no response arrived within \(Int(Self.responseWait)) s"
                throw Failure(
                    description: "\(what) before a response head (\(buffer.count) bytes: "
                        + "\(String(decoding: buffer.prefix(200), as: UTF8.self)))")
            }
        }
        guard let headEnd else { throw Failure(description: "no head") }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw Failure(description: "empty head") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in '\(head)'")
        }
        var headers = Headers()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw Failure(description: "bad header line '\(line)'")
            }
            headers.add(
                String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        let length = headOnly ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < headEnd + length {
            guard fillOutcome(waitingUntil: deadline) == .read else {
                throw Failure(description: "the connection ended inside a body of \(length) bytes")
            }
        }
        let body = Data(buffer[headEnd..<(headEnd + length)])
        buffer.removeFirst(headEnd + length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index] == 0x0A && buffer[index - 1] == 0x0D && buffer[index - 2] == 0x0A
            && buffer[index - 3] == 0x0D
        {
            return index + 1
        }
        return nil
    }

    private func isClosedByServerNow() -> Bool {
        guard buffer.isEmpty else { return false }
        let deadline = Date().addingTimeInterval(Self.responseWait)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count > 0 { return false }
            let code = errno
            if code == ECONNRESET { return true }
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR, Date() < deadline else {
                return false
            }
        }
    }

    private func readToEndNow() -> [UInt8] {
        let deadline = Date().addingTimeInterval(Self.responseWait)
        while fillOutcome(waitingUntil: deadline) == .read {}
        defer { buffer = [] }
        return buffer
    }

    /// Closes with a reset (SO_LINGER 0: the server gets RST, not an orderly end of stream).
    public func reset() {
        guard fd >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(fd)
        fd = -1
    }

    /// Shuts the sending side (the server sees end of stream).
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }
}
