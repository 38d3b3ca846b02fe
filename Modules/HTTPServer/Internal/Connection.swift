import Foundation
import Wire

/// One client connection's state. Owned by the event loop and touched only on its thread.
final class Connection {
    /// Where the connection is in its request/response cycle.
    enum Phase: Equatable {
        /// Between requests, no byte of the next one read.
        case idle
        /// Part of a request has arrived (since `requestStarted`).
        case receiving
        /// The handler is running.
        case handling
        /// A response is being written (since `writeStarted`).
        case writing
        /// An error response was written and the write side shut; discarding input until the
        /// client closes or `lingerUntil`.
        case lingering
    }

    /// What the access log needs about the request being answered.
    struct Exchange {
        var method: String
        var target: String
        var status = 0
        var bytes = 0
        var headOnly = false
        var note: String?
    }

    let id: UInt64
    let fd: Int32
    let remote: String
    /// The client's address without its port (`"127.0.0.1"`), for the per-address limit.
    let address: String
    /// No byte has arrived yet: the connection waits for its first request, and gets the
    /// request timeout for it rather than the idle timeout.
    var isFresh = true

    var phase = Phase.idle
    /// Bytes read and not yet consumed start at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    var scanner = HeadScanner()
    /// The head of a request whose body is still arriving.
    var head: RequestHead?
    var sentContinue = false
    /// The body bytes this connection's request counts against `Limits.bodyBytesInFlight`: those
    /// that have arrived, from the first until its handler answers (a body announced and not
    /// sent holds none).
    var bodyReservation = 0
    /// Bytes to write start at `outputSent`: a response's head (and a small body, or anything
    /// written before it), sent before `outputBody`.
    var output: [UInt8] = []
    var outputSent = 0
    /// A response's body, sent from the handler's own buffer after `output` (never copied into
    /// it); bytes to write start at `outputBodySent`.
    var outputBody = Data()
    var outputBodySent = 0

    /// Monotonic nanoseconds: when the current request's first byte arrived, when the
    /// connection became idle, when the current write began, when lingering ends.
    var requestStarted: UInt64 = 0
    /// Monotonic nanoseconds: when the head of the request whose body is arriving was read, or
    /// the last of its body bytes arrived (for `Configuration.bodyIdleTimeout`).
    var bodyProgress: UInt64 = 0
    var idleSince: UInt64
    var writeStarted: UInt64 = 0
    var lingerUntil: UInt64 = 0

    /// The client closed its sending side (or the socket failed).
    var readClosed = false
    /// Reading is paused because too much pipelined input is waiting.
    var readPaused = false
    var closeAfterResponse = false
    var lingerAfterResponse = false
    /// Whether the response should say `Connection: keep-alive` (an HTTP/1.0 client asked).
    var keepAliveHeader = false
    var exchange: Exchange?
    var task: Task<Void, Never>?
    var isClosed = false
    /// What the loop's epoll watches the socket for (`EventLoop.watch` keeps it current).
    var watched: UInt32 = 0

    init(id: UInt64, fd: Int32, remote: String, now: UInt64) {
        self.id = id
        self.fd = fd
        self.remote = remote
        address = remote.lastIndex(of: ":").map { String(remote[..<$0]) } ?? remote
        idleSince = now
    }

    /// Unconsumed input bytes.
    var buffered: Int { input.count - inputStart }

    /// Drops `count` consumed bytes from the front of the input.
    func consume(_ count: Int) {
        inputStart += count
        if inputStart >= input.count {
            // An idle connection keeps at most a small buffer: thousands of them may be open.
            input.removeAll(keepingCapacity: input.capacity <= 4 * 1024)
            inputStart = 0
        } else if input.capacity > 64 * 1024 && input.count - inputStart <= 16 * 1024 {
            // A body was read: keep the few bytes that follow it, not the body's buffer.
            input = Array(input[inputStart...])
            inputStart = 0
        }
    }

    /// Moves unconsumed input to the front when the consumed part is large.
    func compactInput() {
        guard inputStart > 0, inputStart >= 16 * 1024 || inputStart * 2 >= input.count else { return }
        input.removeFirst(inputStart)
        inputStart = 0
    }

    /// Whether bytes remain to be written.
    var hasOutput: Bool { outputSent < output.count || outputBodySent < outputBody.count }
}
