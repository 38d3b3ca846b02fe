import Foundation
import Wire

/// A small, strict HTTP/1.1 server on POSIX sockets that serves any
/// `@Sendable (Request) async -> Response` handler.
///
/// - Listens on 127.0.0.1 unless another address is configured; port 0 picks a free port
///   (`port` reports it).
/// - Keeps connections alive (HTTP/1.1 by default; HTTP/1.0 with `Connection: keep-alive`),
///   answers pipelined requests in order, one at a time per connection.
/// - Reads bodies framed by `Content-Length` only; `Transfer-Encoding` is refused (411 for
///   chunked, 400 otherwise, see `Limits`).
/// - Enforces limits (request line 414, header fields 431, body 413, the bodies of all requests
///   in flight together 503, counted as their bytes arrive, their memory handed back when none is
///   left; a route's own body limit, `Configuration.bodyLimit`, 413 from the head), a body idle
///   timeout (408), a request timeout on the whole head and body (408: a client sending one byte a second is dropped; a new connection
///   that sends nothing is closed when it ends), an idle timeout between requests and a write
///   timeout.
/// - Limits connections, in all (as many as the process can hold) and per client address; when
///   every slot is taken, closes the connection idle the longest to make room, and keeps one slot
///   in eight for addresses that hold none (503 and closed beyond).
/// - Answers HEAD like GET without the body (the handler sees a GET); sends `100 Continue` to
///   `Expect: 100-continue` and 417 to any other expectation.
/// - Refuses lines ending in a bare LF (400 `bad_line_ending`); answers malformed requests with 400 and the JSON error body, then closes the connection.
/// - Logs one `AccessLogEntry` per request to the configuration's sink.
/// - Adds the faults of an `HTTPFaultProfile` (latency, 5xx, responses dropped after the
///   handler applied a change), switchable while it runs.
/// - Shuts down gracefully: stops accepting, lets requests in flight finish within a grace
///   period, then cancels what is left and closes.
///
/// One event-loop thread multiplexes every connection with `epoll(7)`; each request's handler
/// runs as a task on two handler threads of the server's own, so a slow handler that suspends
/// (a long poll) holds no thread while it waits.
///
/// ```swift
/// let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
///     await backend.handle(request)
/// }
/// print("listening on \(server.baseURL)")
/// let report = await server.shutdown(gracePeriod: .seconds(5))
/// ```
public final class HTTPServer: Sendable {
    /// What answers requests.
    public typealias Handler = @Sendable (Request) async -> Response

    /// The configuration it was started with (its port as asked, maybe 0; see `port`).
    public let configuration: Configuration
    /// The port it listens on (the kernel's choice when the configuration asked for 0).
    public let port: Int
    private let loop: EventLoop

    private init(configuration: Configuration, port: Int, loop: EventLoop) {
        self.configuration = configuration
        self.port = port
        self.loop = loop
    }

    /// Starts listening and serving on a thread of its own.
    ///
    /// Raises the process's soft limit on open files to its hard limit, and derives from it how
    /// many connections it may hold (`connectionLimit`).
    ///
    /// - Throws: `HTTPServerError` when the configuration is invalid or the address cannot be
    ///   bound (in use, not this machine's, privileged).
    public static func start(_ configuration: Configuration = Configuration(), handler: @escaping Handler)
        throws(HTTPServerError) -> HTTPServer
    {
        try configuration.validate()
        let limit = configuration.connectionLimit(
            descriptors: Posix.raiseDescriptorLimit(), memory: Posix.physicalMemory())
        let (fd, port) = try ListeningSocket.open(
            host: configuration.host, port: configuration.port, backlog: Int32(min(limit, 4096)))
        let loop = try EventLoop(
            listener: fd, configuration: configuration, connectionLimit: limit, handler: handler)
        loop.start()
        return HTTPServer(configuration: configuration, port: port, loop: loop)
    }

    /// `http://127.0.0.1:PORT` (an IPv6 host in brackets).
    public var baseURL: URL {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops accepting connections, lets requests in flight finish (their responses say
    /// `Connection: close`), closes idle connections, and after `gracePeriod` cancels the
    /// handlers still running and closes everything. Returns when the server has stopped;
    /// calling it again returns the same report.
    public func shutdown(gracePeriod: Duration = .seconds(5)) async -> ShutdownReport {
        loop.requestShutdown(gracePeriod: gracePeriod)
        return await loop.waitUntilStopped()
    }

    /// Waits until the server has stopped (after `shutdown` from elsewhere).
    public func waitUntilStopped() async -> ShutdownReport { await loop.waitUntilStopped() }

    /// Counts of connections and requests so far.
    public var statistics: Statistics { loop.counters.snapshot }

    /// How many connections may be open at once: `Configuration.maxConnections`, or what the
    /// process can hold when that is nil (see there).
    public var connectionLimit: Int { loop.connectionLimit }

    /// The fault profile in force.
    public var faults: HTTPFaultProfile { loop.faultProfile }

    /// Switches the fault profile for requests read from now on (and reseeds the draws).
    public func setFaults(_ profile: HTTPFaultProfile) { loop.setFaultProfile(profile) }
}
