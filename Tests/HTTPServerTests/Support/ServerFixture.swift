@_spi(Testing) import Backend
import Foundation
import HTTPServer
import ServerAPI
import Synchronization
import Wire

/// A seeded backend served over HTTP on an ephemeral port, an `HTTPTransport` to it, and a
/// client signed in as ada. Call `stop()` at the end of a test.
struct ServerFixture {
    let backend: BackendServer
    let server: HTTPServer
    let log: LogRecorder
    let transport: HTTPTransport
    let client: APIClient
    /// ada's bearer token, which `client` sends.
    let token: String

    var port: Int { server.port }

    /// Starts the server over a fresh seeded copy, with `configure` applied to the configuration.
    init(
        timeout: Duration = .seconds(10), configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws {
        backend = try BackendServer.seededCopy(clock: SystemClock())
        let log = LogRecorder()
        self.log = log
        var configuration = HTTPServer.Configuration(port: 0, requestTimeout: testRequestTimeout)
        configuration.accessLog = { log.append($0) }
        configure(&configuration)
        let backend = backend
        server = try HTTPServer.start(configuration) { request in await backend.handle(request) }
        transport = HTTPTransport(baseURL: server.baseURL, timeout: timeout)
        token = backend.testToken(forHandle: BackendSeed.firstHandle)
        client = APIClient(transport: transport, bearerToken: token)
    }

    /// Shuts the server down and closes the backend.
    func stop() async {
        _ = await server.shutdown(gracePeriod: .seconds(2))
        backend.close()
    }

    /// A raw client connected to the server.
    func raw(readTimeout: Duration = .seconds(5)) throws -> RawClient {
        try RawClient(port: port, readTimeout: readTimeout)
    }
}

/// Starts a server with a custom handler on an ephemeral port.
func startServer(
    configure: (inout HTTPServer.Configuration) -> Void = { _ in }, log: LogRecorder = LogRecorder(),
    handler: @escaping HTTPServer.Handler
) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(port: 0, requestTimeout: testRequestTimeout)
    configuration.accessLog = { log.append($0) }
    configure(&configuration)
    return try HTTPServer.start(configuration, handler: handler)
}

/// The request timeout of test servers, unless a test sets its own: long, because a whole
/// `swift test` run in parallel can delay a test's next send by seconds, and a test that pauses
/// between pieces of a request must not meet the timeout by accident.
let testRequestTimeout: Duration = .seconds(300)

/// Access log entries, in the order the server wrote them.
final class LogRecorder: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])

    func append(_ entry: AccessLogEntry) { entries.withLock { $0.append(entry) } }

    var all: [AccessLogEntry] { entries.withLock { $0 } }
}

/// Waits (polling every 5 ms) until `condition` holds, for up to 60 s; returns whether it held.
/// For server-side effects that land just after a client has seen the response. The limit only
/// detects a hang: a machine whose cores are busy with other work can hold the server back for
/// seconds, and a shorter wait would fail a correct server.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// A gate a test handler waits on until the test opens it.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrivals = 0
    }

    private let state = Mutex(State())

    /// Waits until `open()`.
    func wait() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state -> Bool in
                state.arrivals += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// How many callers have reached the gate.
    var arrivals: Int { state.withLock { $0.arrivals } }

    /// Lets every waiter through, now and later.
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
