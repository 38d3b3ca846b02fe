import Foundation
import Storage
import Synchronization
import Wire

#if canImport(Glibc)
    import Glibc

    private func createOwnerOnly(_ path: String) -> Int32 {
        Glibc.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    }
    private func closeDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
#elseif canImport(Darwin)
    import Darwin

    private func createOwnerOnly(_ path: String) -> Int32 {
        Darwin.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    }
    private func closeDescriptor(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
#endif

/// The server the apps talk to: users, follows, posts of every kind, replies, likes, reposts,
/// a ranked home feed, threads, profiles, an event stream and idempotent mutations, persisted
/// in SQLite (or in PostgreSQL, shared by several servers: `init(opening:...)`). Its routes are plain `Request -> Response` values, so the same handlers serve in
/// process (`EmbeddedTransport`) and over HTTP.
///
/// ```swift
/// let server = try BackendServer(directory: "/tmp/backend", demoMode: true)
/// let signIn = await server.handle(
///     Request(.post, "/v1/sessions", body: Data(#"{"handle":"ada","password":"loom-demo"}"#.utf8)))
/// // signIn.body: {"session": {"token": "tok_…", "renewToken": "ren_…", "expiresAt": …, "user": …}}
/// ```
///
/// Nobody gets a token without a password: accounts store a salted scrypt hash of theirs, and
/// tokens are random, stored only as their SHA-256, expire (`SessionPolicy`) and can be
/// revoked. The seed accounts share `DemoAccounts.password` and may sign in only when the
/// server is in demo mode.
///
/// Bad requests get a 4xx with `{"error": {"code": ..., "message": ...}}`, never a crash. The
/// database file may be shared by several processes (WAL, busy timeout); it is seeded once.
/// Backend's docs list every endpoint (Modules/Backend/Backend.docc).
public final class BackendServer: Sendable {
    /// The name of the database file inside the backend's directory.
    public static let databaseFileName = "backend.sqlite"
    /// The largest request body any route reads, in bytes: a post with uploaded photos (base64
    /// in its JSON). An HTTP server in front of the backend lets bodies this large through.
    public static let maximumRequestBodySize = BackendCore.maximumPostBodySize

    let core: BackendCore
    let router: Router
    /// The seed the data was made from (the file's, when it was seeded before with another).
    public let seed: UInt64

    /// Opens (creating and seeding if needed) the backend whose files live in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the directory of the backend's database file, created if missing.
    ///   - seed: the seed data's seed number; used only when the file is new.
    ///   - clock: the source of every timestamp (a `ManualClock` makes runs deterministic).
    ///   - demoMode: whether the seed accounts may sign in with `DemoAccounts.password` (off by
    ///     default: a server others reach must not let anyone in as a seed account).
    ///   - sessionPolicy: how long tokens and renew tokens last.
    /// - Throws: `BackendOpenError` when the directory cannot be made; `StorageError` when the
    ///   database cannot be opened, migrated or seeded.
    public convenience init(
        directory: String, seed: UInt64 = BackendSeed.defaultSeed, clock: any WallClock = SystemClock(),
        demoMode: Bool = false, sessionPolicy: SessionPolicy = SessionPolicy()
    )
        throws
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BackendOpenError(
                message: "cannot create the backend directory '\(directory)': "
                    + "\(FileSystemReason.describe(error, at: directory)); choose a directory you can write to"
            )
        }
        let path = (directory as NSString).appendingPathComponent(Self.databaseFileName)
        try Self.restrictToOwner(path)
        // Storage waits out the WAL switch when several processes open a new file at once, and a
        // writer waits up to `busyTimeout` for another process's write (the longest is seeding,
        // seconds on a slow or busy machine) before it reports the file busy.
        let database = try Database(
            path: path, options: Database.Options(synchronous: .normal, busyTimeout: Self.busyTimeout))
        try self.init(
            database: database, readers: ReaderPool(path: path, capacity: Self.readerCount), seed: seed,
            clock: clock, demoMode: demoMode, sessionPolicy: sessionPolicy)
    }

    /// Opens (migrating and seeding if needed) the backend on a database server instead of its
    /// own SQLite file: PostgreSQL through PostgresStorage, say (`backend-server --database`).
    ///
    /// - Parameters:
    ///   - open: makes a new connection to the database each time it is called: one that
    ///     writes (`readOnly` false), then one per read that runs beside others (up to
    ///     `readerCount`; `readOnly` true: the connection should refuse writes).
    ///   - seed: the seed data's seed number; used only when the database is new.
    ///   - clock: the source of every timestamp.
    ///   - demoMode: whether the seed accounts may sign in with `DemoAccounts.password`.
    ///   - sessionPolicy: how long tokens and renew tokens last.
    /// - Throws: `StorageError` when the database cannot be reached, migrated or seeded
    ///   (`.schema` when a newer build migrated it).
    public convenience init(
        opening open: @escaping @Sendable (_ readOnly: Bool) throws -> Database,
        seed: UInt64 = BackendSeed.defaultSeed,
        clock: any WallClock = SystemClock(), demoMode: Bool = false,
        sessionPolicy: SessionPolicy = SessionPolicy()
    ) throws {
        let database = try open(false)
        let readers = ReaderPool(location: database.path, capacity: Self.readerCount) { try open(true) }
        try self.init(
            database: database, readers: readers, seed: seed, clock: clock, demoMode: demoMode,
            sessionPolicy: sessionPolicy)
    }

    /// Migrates and seeds `database`, then serves it. Safe when several processes open a new
    /// database at once: migrating and seeding each re-check inside their write transaction.
    private init(
        database: Database, readers: ReaderPool, seed: UInt64, clock: any WallClock, demoMode: Bool,
        sessionPolicy: SessionPolicy
    ) throws {
        try database.migrate(BackendSchema.migrations)
        self.seed = try BackendSeeder.seedIfNeeded(database, seed: seed, now: clock.now)
        core = BackendCore(
            database: database, readers: readers, clock: clock, demoMode: demoMode,
            sessionPolicy: sessionPolicy)
        router = Router(routes: Self.routes(core))
        // Events other processes write wake this one's long polls at once.
        let notifier = core.notifier
        let listener = try database.listen(BackendCore.eventChannel) { payload in
            if let recipient = Int64(payload) { notifier.notify([recipient]) }
        }
        core.eventListener.withLock { $0 = listener }
    }

    /// Makes the database file (and its write-ahead files, when there) readable and writable by
    /// its owner only, 0600: it holds the password hashes. A new file is created with that mode
    /// before SQLite opens it (SQLite gives the write-ahead files the main file's mode); an
    /// existing one is tightened.
    private static func restrictToOwner(_ path: String) throws {
        let files = FileManager.default
        // O_CREAT without O_TRUNC: when several processes open a new directory at once, each
        // either creates the file or opens the one another made (never replaces it).
        let descriptor = createOwnerOnly(path)
        guard descriptor >= 0 else {
            throw BackendOpenError(
                message: "cannot create the database file '\(path)': \(String(cString: strerror(errno))); "
                    + "choose a directory you can write to")
        }
        closeDescriptor(descriptor)
        for file in [path, path + "-wal", path + "-shm"] where files.fileExists(atPath: file) {
            do {
                try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            } catch {
                throw BackendOpenError(
                    message:
                        "cannot make '\(file)' readable by its owner only (it holds the password hashes): "
                        + "\(FileSystemReason.describe(error, at: file)); run the server as the file's owner")
            }
        }
    }

    /// How long a write waits for another connection's write to the same file to end.
    static let busyTimeout: Duration = .seconds(30)

    /// How many read-only connections (at most, opened on demand) serve the routes that only
    /// read (the feed, threads, profiles, the account list) beside the connection that writes:
    /// as many as the HTTP server runs handlers at once.
    static let readerCount = 2

    /// Whether the seed accounts may sign in with `DemoAccounts.password`.
    public var demoMode: Bool { core.demoMode }

    /// How long tokens and renew tokens last.
    public var sessionPolicy: SessionPolicy { core.sessionPolicy }

    /// The clock timestamps come from.
    public var clock: any WallClock { core.clock }

    /// The database file's path (for a database server, its URL without the password).
    public var databasePath: String { core.database.path }

    /// The database, for tests and tools in this package.
    package var database: Database { core.database }

    /// Answers one request. Never throws: every failure is a 4xx or 5xx with the JSON error body.
    public func handle(_ request: Request) async -> Response {
        do {
            let (route, parameters) = try router.resolve(request)
            if route.cached, let token = request.bearerToken, let version = core.pages.version() {
                let key = PageCache.Key(token: token, path: request.path, query: request.query)
                if let page = core.pages.page(key, version: version, now: core.nowMilliseconds) {
                    return EntityTag.conditional(request, page)
                }
                let note = RouteRequest.SessionNote()
                let answer = EntityTag.conditional(
                    request,
                    try await route.handler(
                        RouteRequest(request: request, parameters: parameters, session: note)))
                if let expiresAt = note.expiresAt.withLock({ $0 }) {
                    core.pages.store(answer, key, version: version, expiresAt: expiresAt)
                }
                return answer
            }
            return EntityTag.conditional(
                request, try await route.handler(RouteRequest(request: request, parameters: parameters)))
        } catch let error as APIError {
            return error.response
        } catch let error as StorageError where error.code == .busy || error.code == .locked {
            return .error(
                503, code: "busy", message: "the backend's database is busy: \(error.message); retry shortly",
                headers: ["Retry-After": "1"])
        } catch {
            // The detail (SQL, the database's path) is for the operator, not the caller.
            Self.logFailure(
                "\(request.method) \(request.path.prefix(200)) failed inside the backend: \(error)")
            let what = request.method == .get || request.method == .head ? "answer" : "save"
            return .error(
                500, code: "internal",
                message: "the server could not \(what) this (\(request.method) \(request.path.prefix(200))); "
                    + "try again later")
        }
    }

    /// Writes a failure's detail to standard error, where the operator reads it (a failed write
    /// there is ignored: the answer to the caller does not depend on it).
    private static func logFailure(_ text: String) {
        let line = "backend: error: " + text.replacingOccurrences(of: "\n", with: " | ") + "\n"
        try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
    }

    /// Closes the database; later requests answer 500.
    public func close() {
        core.eventListener.withLock { listener in
            listener?.stop()
            listener = nil
        }
        core.pages.close()
        core.readers.close()
        try? core.database.close()
    }
}

/// The backend's directory could not be prepared.
public struct BackendOpenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    public let message: String

    /// The message.
    public var description: String { message }
}
