@_spi(Testing) import Backend
import Foundation
import MediaModel
import PostgresStorage
import Storage
import Wire

/// Fresh seeded backends for tests (copies of one seeded template).
enum BackendFixture {
    /// A new directory under the temporary directory.
    static func temporaryDirectory(_ name: String) throws -> String {
        try BackendServer.makeTemporaryDirectory(name)
    }

    /// A backend of its own, seeded with seed 1, whose clock starts at the seed's epoch.
    static func fresh(clock: ManualClock = ManualClock()) throws -> BackendServer {
        try BackendServer.seededCopy(clock: clock)
    }

    /// A backend on the PostgreSQL database at `url` (migrated and seeded when new), its clock
    /// manual and new passwords hashed at the minimal cost. Several may share one database.
    static func onPostgres(_ url: String, clock: ManualClock = ManualClock()) throws -> BackendServer {
        try BackendServer(
            opening: { try Database.postgres(url, readOnly: $0) }, clock: clock,
            sessionPolicy: BackendServer.SessionPolicy(passwordCost: .minimal))
    }

    /// The path of a seeded database file to copy.
    static func templateFile() throws -> String {
        let server = try BackendServer.seededCopy()
        server.close()
        return server.databasePath
    }
}

/// Sends requests to a server as one user.
struct TestClient {
    let server: BackendServer
    var token: String?

    /// A client of `server` signed in as the first seed user (a token minted for the test).
    init(server: BackendServer) {
        self.init(server: server, token: server.testToken(forHandle: BackendSeed.firstHandle))
    }

    /// A client of `server` sending `token` (none when nil).
    init(server: BackendServer, token: String?) {
        self.server = server
        self.token = token
    }

    func get(_ path: String, _ query: [String: String] = [:]) async -> Response {
        await send(.get, path, query: query)
    }

    func send(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], body: String? = nil,
        key: String? = nil
    ) async -> Response {
        var headers: Headers = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let key { headers["Idempotency-Key"] = key }
        let items = query.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) }
        return await server.handle(
            Request(method, path, query: items, headers: headers, body: body.map { Data($0.utf8) } ?? Data()))
    }

    func `as`(_ handle: String) -> TestClient {
        TestClient(server: server, token: server.testToken(forHandle: handle))
    }
}

extension Response {
    /// The body parsed as raw JSON (`.null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }

    /// The error code of a JSON error body.
    var errorCode: String? { ErrorBody(decoding: body)?.code }

    /// The error message of a JSON error body.
    var errorMessage: String? { ErrorBody(decoding: body)?.message }

    var text: String { String(decoding: body, as: UTF8.self) }
}

extension JSONValue {
    /// The value at a path of object keys and array indexes.
    subscript(_ path: Any...) -> JSONValue {
        var value = self
        for step in path {
            switch (value, step) {
            case (.object(let fields), let key as String): value = fields[key] ?? .null
            case (.array(let items), let index as Int) where items.indices.contains(index):
                value = items[index]
            default: return .null
            }
        }
        return value
    }

    var int: Int? {
        switch self {
        case .int(let value): Int(value)
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    var array: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
