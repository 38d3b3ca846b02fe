@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import ServerAPI
import ServerTesting
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
        var configuration = HTTPServer.Configuration(
            port: 0, requestTimeout: testRequestTimeout, bodyIdleTimeout: testRequestTimeout)
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
