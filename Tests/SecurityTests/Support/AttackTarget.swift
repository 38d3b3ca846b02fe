@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import MediaModel
import PostgresStorage
import PostgresTesting
import ServerAPI
import ServerTesting
import Storage
import Synchronization
import Testing
import Wire

/// How an attack reaches the backend: over a real HTTP server on loopback (the address the
/// server sees is 127.0.0.1), or in process through the embedded transport (no address).
enum AttackPath: String, CaseIterable, CustomTestStringConvertible {
    case http
    case embedded
    /// Two servers on one PostgreSQL database, each behind an HTTP server of its own, with the
    /// requests dealt between them in turn (as a load balancer deals them): what one server
    /// learns (a failed sign-in, a revoked token, a used key) the other must know.
    case twoServersOnPostgres

    var testDescription: String { rawValue }
}

/// A seeded backend under attack, reached over `path`, with a manual clock the test moves.
/// Call `stop()` at the end of a test.
struct AttackTarget {
    let backend: BackendServer
    let clock: ManualClock
    private let transport: any Transport
    private let server: HTTPServer?
    /// The second server and its HTTP server, on the two-server path.
    private let second: (backend: BackendServer, server: HTTPServer)?

    /// The HTTP server's port (nil on the embedded path).
    var port: Int? { server?.port }

    /// `bodyBytes`, when given, is the HTTP server's body limit (``BackendServer/maximumRequestBodySize``
    /// lets a post's photos through, as `backend-server` does).
    init(
        _ path: AttackPath = .http, demoMode: Bool = true,
        sessionPolicy: BackendServer.SessionPolicy = BackendServer.SessionPolicy(), bodyBytes: Int? = nil
    ) throws {
        clock = ManualClock()
        // A long timeout: in a loaded full run, account creations queue for their password hashes
        // (two at once per process); slowness is not what these tests are about.
        func serve(_ backend: BackendServer) throws -> HTTPServer {
            try startServer(configure: { configuration in
                if let bodyBytes { configuration.limits.bodyBytes = bodyBytes }
            }) { await backend.handle($0) }
        }
        switch path {
        case .http:
            backend = try BackendServer.seededCopy(
                clock: clock, demoMode: demoMode, sessionPolicy: sessionPolicy)
            let server = try serve(backend)
            self.server = server
            second = nil
            transport = HTTPTransport(baseURL: server.baseURL, timeout: .seconds(300))
        case .embedded:
            backend = try BackendServer.seededCopy(
                clock: clock, demoMode: demoMode, sessionPolicy: sessionPolicy)
            server = nil
            second = nil
            transport = EmbeddedTransport(server: backend)
        case .twoServersOnPostgres:
            let url = try SharedPostgres.newDatabaseURL(copying: "security_seeded") { template in
                try BackendServer(
                    opening: { try Database.postgres(template, readOnly: $0) }, clock: ManualClock()
                )
                .close()
            }
            let clock = clock
            func open() throws -> BackendServer {
                try BackendServer(
                    opening: { try Database.postgres(url, readOnly: $0) }, clock: clock, demoMode: demoMode,
                    sessionPolicy: sessionPolicy)
            }
            backend = try open()
            let other = try open()
            let (firstServer, otherServer) = (try serve(backend), try serve(other))
            server = firstServer
            second = (other, otherServer)
            transport = RoundRobinTransport([
                HTTPTransport(baseURL: firstServer.baseURL, timeout: .seconds(300)),
                HTTPTransport(baseURL: otherServer.baseURL, timeout: .seconds(300)),
            ])
        }
    }

    func stop() async {
        if let server { _ = await server.shutdown(gracePeriod: .seconds(2)) }
        if let second { _ = await second.server.shutdown(gracePeriod: .seconds(2)) }
        backend.close()
        second?.backend.close()
    }

    /// Sends a request with a JSON body (when given), a bearer token and an idempotency key.
    func send(
        _ method: HTTPMethod, _ path: String, json: String? = nil, token: String? = nil, key: String? = nil
    ) async throws -> Response {
        var headers: Headers = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let key { headers["Idempotency-Key"] = key }
        if json != nil { headers["Content-Type"] = "application/json" }
        return try await transport.send(
            Request(method, path, headers: headers, body: json.map { Data($0.utf8) } ?? Data()))
    }

    /// `POST /v1/sessions` with a handle and a password.
    func signIn(_ handle: String, _ password: String) async throws -> Response {
        try await send(.post, "/v1/sessions", json: #"{"handle": "\#(handle)", "password": "\#(password)"}"#)
    }

    /// `POST /v1/accounts` for `handle` with `password`, under `key`.
    func createAccount(_ handle: String, password: String, key: String) async throws -> Response {
        try await send(
            .post, "/v1/accounts",
            json:
                #"{"handle": "\#(handle)", "displayName": "\#(handle.capitalized)", "password": "\#(password)"}"#,
            key: key)
    }

    /// Signs in (a success expected) and returns the session object.
    func session(_ handle: String, _ password: String = DemoAccounts.password) async throws -> Session {
        let response = try await signIn(handle, password)
        try #require(response.status == 200, "sign-in as \(handle): \(response.text)")
        return try #require(Session(response.json["session"]))
    }

    /// `GET /v1/me` with `token`: the status and, on 401, the error code.
    func me(_ token: String) async throws -> (status: Int, code: String?, handle: String?) {
        let response = try await send(.get, "/v1/me", token: token)
        return (response.status, response.errorCode, response.json["profile", "user", "handle"].stringValue)
    }
}

/// Deals requests to its transports in turn, as a round-robin load balancer does.
struct RoundRobinTransport: Transport {
    let transports: [any Transport]
    private let next = Counter()

    init(_ transports: [any Transport]) { self.transports = transports }

    func send(_ request: Request) async throws(TransportError) -> Response {
        try await transports[next.take() % transports.count].send(request)
    }

    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
    }
}

/// The session object's tokens. Only the bearer token is required, so that an attack on a
/// server that hands out nothing else fails where the attack succeeds, not while reading.
struct Session {
    var token: String
    /// Empty when the answer had none.
    var renewToken: String

    init?(_ json: JSONValue) {
        guard let token = json["token"].stringValue else { return nil }
        self.token = token
        renewToken = json["renewToken"].stringValue ?? ""
    }
}

extension Response {
    /// The body parsed as JSON (`.null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
    /// The error code of a JSON error body.
    var errorCode: String? { ErrorBody(decoding: body)?.code }
    /// The body as text, for failure messages.
    var text: String { "\(status) \(String(decoding: body, as: UTF8.self))" }
}

extension JSONValue {
    /// The value at a path of object keys (`.null` when absent).
    subscript(_ path: String...) -> JSONValue {
        var value = self
        for key in path {
            guard case .object(let fields) = value else { return .null }
            value = fields[key] ?? .null
        }
        return value
    }
}
