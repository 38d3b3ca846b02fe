import HTTPServer
import Synchronization
import Wire

/// Starts a server with a custom handler on an ephemeral port.
public func startServer(
    configure: (inout HTTPServer.Configuration) -> Void = { _ in }, log: LogRecorder = LogRecorder(),
    handler: @escaping HTTPServer.Handler
) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(
        port: 0, requestTimeout: testRequestTimeout, bodyIdleTimeout: testRequestTimeout,
        idleTimeout: testRequestTimeout)
    configuration.accessLog = { log.append($0) }
    configure(&configuration)
    return try HTTPServer.start(configuration, handler: handler)
}

/// The request, body idle and idle timeouts of test servers, unless a test sets its own: long, because a
/// whole `swift test` run in parallel can delay a test's next send by seconds (a minute, when
/// other tests hold both threads of the cooperative pool), and a test that pauses between pieces
/// of a request, or keeps a connection idle to watch what shutdown does with it, must not meet a
/// timeout by accident.
public let testRequestTimeout: Duration = .seconds(300)

/// Access log entries, in the order the server wrote them.
public final class LogRecorder: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])

    public init() {}

    public func append(_ entry: AccessLogEntry) { entries.withLock { $0.append(entry) } }

    public var all: [AccessLogEntry] { entries.withLock { $0 } }
}

/// How long a test waits for something that must happen before it calls it a hang. Only a hang
/// guard, never a time limit: with eight busy loops sharing the two cores, a whole run of the
/// suite takes many minutes and any one test's step can wait minutes for a thread.
public let testHangGuard: Duration = .seconds(600)

/// Waits (polling every 5 ms) until `condition` holds, for up to ``testHangGuard``; returns
/// whether it held. For server-side effects that land just after a client has seen the response.
public func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + testHangGuard
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
