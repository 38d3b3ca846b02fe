@_spi(Testing) import Backend
import FeedCaching
import Foundation
import MediaModel
@_spi(Testing) import Mutations
@_spi(Testing) import Networking
import ServerAPI
import Storage
import Synchronization
import Testing
import Wire

/// What the server did with one mutation request, in the order it handled them.
struct ServerHandling: Sendable, Hashable {
    var token: String
    var request: String
    var status: Int
    var replayed: Bool

    /// The server changed its data for this request (a first answer with a 2xx).
    var applied: Bool { !replayed && (200..<300).contains(status) }
}

/// The backend's routes as a transport, recording every mutation request the server handled:
/// the "server side" log the invariants are checked against.
final class RecordingServerTransport: Transport {
    let server: BackendServer
    private let log = Mutex<[ServerHandling]>([])

    init(server: BackendServer) { self.server = server }

    func send(_ request: Request) async throws(TransportError) -> Response {
        var response = await server.handle(request)
        response.headers["Content-Length"] = String(response.body.count)
        if let token = request.headers["Idempotency-Key"] {
            log.withLock {
                $0.append(
                    ServerHandling(
                        token: token, request: "\(request.method) \(request.path)", status: response.status,
                        replayed: response.headers["Idempotent-Replayed"] == "true"))
            }
        }
        return response
    }

    var handled: [ServerHandling] { log.withLock { $0 } }
}

/// A seeded backend behind a fault layer on a manual clock, and an app data directory with its
/// database, media store, feed cache and mutation manager, which `restart` reopens like a cold
/// start.
final class MutationHarness {
    let clock: ManualClock
    let server: BackendServer
    let recorder: RecordingServerTransport
    let faults: FaultInjectingTransport
    let client: APIClient
    /// The session token every attempt reads (`signIn` changes it; a 401 hook may renew it).
    let session: Session
    let directory: String
    let configuration: MutationManager.Configuration
    let reauthentications = Counter()
    private(set) var database: Database
    private(set) var store: MediaStore
    private(set) var cache: FeedCache
    private(set) var manager: MutationManager

    static func configuration(seed: UInt64 = 1) -> MutationManager.Configuration {
        var configuration = MutationManager.Configuration()
        configuration.jitterSeed = seed
        configuration.tokens = .sequential(prefix: "t\(seed)-\(UUID().uuidString.prefix(8))-")
        return configuration
    }

    init(
        profile: FaultProfile = .perfect, seed: UInt64 = 1,
        configuration: MutationManager.Configuration? = nil,
        bearerToken: String? = nil, start: Bool = true
    ) throws {
        // `bearerToken`: ada's (minted in the new server) when nil.
        clock = ManualClock()
        server = try BackendServer.seededCopy(clock: clock)
        let bearerToken = bearerToken ?? server.testToken(forHandle: BackendSeed.firstHandle)
        recorder = RecordingServerTransport(server: server)
        faults = FaultInjectingTransport(upstream: recorder, profile: profile, clock: clock, seed: seed)
        client = APIClient(transport: faults, bearerToken: bearerToken, clock: clock)
        session = Session(token: bearerToken)
        directory = try BackendServer.makeTemporaryDirectory("mutations-app")
        self.configuration = configuration ?? Self.configuration(seed: seed)
        (database, store, cache, manager) = try Self.open(
            directory: directory, client: client, session: session, clock: clock,
            configuration: self.configuration, reauthentications: reauthentications)
        if start { manager.start() }
    }

    private static func open(
        directory: String, client: APIClient, session: Session, clock: ManualClock,
        configuration: MutationManager.Configuration, reauthentications: Counter
    ) throws -> (Database, MediaStore, FeedCache, MutationManager) {
        let database = try AppDatabase.open(directory: directory)
        let store = MediaStore()
        let cache = FeedCache(database: database, mediaStore: store, clock: clock) {
            cursor throws(TransportError) in
            try await client.homeFeed(cursor: cursor, limit: 20)
        }
        let manager = try MutationManager(
            database: database, client: { client.signedIn(as: session.token) }, feedCache: cache,
            clock: clock, configuration: configuration,
            reauthenticate: {
                reauthentications.increment()
                session.renew()
            })
        return (database, store, cache, manager)
    }

    /// A cold start on the same files: stop sending, close the database, open everything again
    /// (a new media store, as a new process would have) and start.
    func restart(start: Bool = true) async throws {
        await manager.stop()
        try database.close()
        (database, store, cache, manager) = try Self.open(
            directory: directory, client: client, session: session, clock: clock,
            configuration: configuration,
            reauthentications: reauthentications)
        _ = try cache.firstScreen(width: 80, rows: 1000)
        if start { manager.start() }
    }

    /// Advances the clock in steps of at most `step`, letting the manager settle after each.
    func advance(by total: Duration, step: Duration = .seconds(1)) async {
        var left = total
        while left > .zero {
            let move = min(step, left)
            clock.advance(by: move)
            left -= move
            await manager.waitUntilIdle()
        }
    }

    /// The home feed's cached entries merged with the layer, as a screen would show them.
    func homeFeed() throws -> [MergedEntry] {
        manager.mergedHomeFeed(try cache.entries(from: 0, count: 1000).map(\.entry), store: store)
    }

    /// What the server did with each token's requests.
    func handlings(of token: MutationToken) -> [ServerHandling] {
        recorder.handled.filter { $0.token == token.rawValue }
    }

    /// The backend's facts of a media as ada sees them now.
    func serverFacts(_ id: MediaID) async throws -> MediaFacts {
        let envelope = try await APIClient(
            transport: recorder, bearerToken: server.testToken(forHandle: BackendSeed.firstHandle),
            clock: clock
        ).post(id)
        return try #require(envelope.facts[id])
    }

    /// A count from the backend's database.
    func backendCount(_ sql: String, _ bindings: (any SQLBindable)?...) throws -> Int {
        try server.database.query(sql, bindings: bindings).first?.int(0) ?? -1
    }

    var reauthenticationCount: Int { reauthentications.value }
}

/// A counter shared with `@Sendable` closures.
final class Counter: Sendable {
    private let storage = Mutex(0)

    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}

/// The session token the harness's client signs in with, and the one a 401 hook renews it to.
final class Session: Sendable {
    private let state: Mutex<(token: String, renewal: String?)>

    init(token: String) { state = Mutex((token, nil)) }

    var token: String { state.withLock { $0.token } }

    /// Makes the next renewal switch to `token`.
    func renew(to token: String) { state.withLock { $0.renewal = token } }

    /// Called by the 401 hook.
    func renew() { state.withLock { if let renewal = $0.renewal { $0.token = renewal } } }
}

/// Polls until `condition` holds (for states reached by tasks the test does not await, such as an
/// attempt sleeping on the manual clock). Records an issue if it never does within 10 minutes of
/// real time, so a bug fails the test instead of hanging it (hang detection only: a loaded
/// machine, eight busy loops on two cores, can hold a task back for minutes).
func eventually(
    _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async {
    let deadline = Date().addingTimeInterval(600)
    while !condition() {
        if Date() > deadline {
            Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}
