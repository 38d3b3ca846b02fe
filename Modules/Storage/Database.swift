import Synchronization

/// A SQLite database: one connection, safe to share across threads and tasks. (Or a database
/// another engine serves, through the same calls: `init(engine:)`.)
///
/// Opening sets WAL mode (for a writable file), the chosen `synchronous` level, a busy timeout
/// and `foreign_keys = ON`. Statements are prepared once per SQL text and cached.
///
/// Threading model: a `Database` owns one SQLite connection behind a `Mutex`. Every call takes
/// the mutex for its whole duration, so calls from many threads are serialized and never
/// interleave inside SQLite. A closure passed to `withConnection` or `transaction` runs on
/// the caller's thread with the mutex held: use the `Connection` it is given (a `~Copyable`
/// value that cannot escape the closure) and do not call this `Database` from inside it, which
/// throws a `misuse` error instead of deadlocking. Keep closures short: other callers wait.
/// For reads that run beside a writer, open another `Database` on the same file: WAL lets
/// readers proceed while one connection writes.
///
/// ```swift
/// let db = try Database(path: "/tmp/app.sqlite")
/// try db.migrate([Migration(version: 1, name: "media", sql: "CREATE TABLE media (id TEXT PRIMARY KEY, body BLOB)")])
/// try db.transaction { db in
///     let insert = try db.prepare("INSERT INTO media (id, body) VALUES (?, ?)")
///     for item in items { try insert.execute(item.id, item.body) }
/// }
/// let ids = try db.query("SELECT id FROM media ORDER BY id") { row in try row.string(0) }
/// ```
public final class Database: Sendable {
    /// Where the database lives.
    public let location: Location
    /// The options it was opened with.
    public let options: Options
    /// The journal mode SQLite reported at open: `"wal"` for a writable file, `"memory"` for an
    /// in-memory database.
    public let journalMode: String

    private let connection: Mutex<ConnectionCore?>
    /// The engine's connection, for a database made with `init(engine:)` (then `connection` is
    /// nil from the start).
    private let engine: Mutex<(any SQLEngine)?>
    /// Whether an engine serves this database.
    @usableFromInline let servedByEngine: Bool
    /// The SQL this database speaks.
    public let dialect: SQLDialect
    /// The thread holding `connection`'s lock, or 0: lets a re-entrant call fail instead of
    /// deadlocking. Written only by the lock's holder.
    private let owner = Atomic<UInt>(0)

    /// Opens (creating if needed) a database.
    ///
    /// - Throws: `StorageError`: `cannotOpen` for a missing directory or unreadable file,
    ///   `notADatabase` for a file that is not a SQLite database.
    public init(_ location: Location, options: Options = Options()) throws(StorageError) {
        let core = try ConnectionCore.open(path: location.path, options: options)
        self.location = location
        self.options = options
        self.journalMode = core.journalMode
        self.connection = Mutex(core)
        self.engine = Mutex(nil)
        self.servedByEngine = false
        self.dialect = .sqlite
    }

    /// A database served by an engine other than SQLite (PostgresStorage's, say), which it owns
    /// and closes. Every call works as on SQLite's; `options` and `journalMode` do not apply.
    public init(engine: sending any SQLEngine) {
        self.location = .engine(engine.location)
        self.options = Options()
        self.journalMode = ""
        self.dialect = engine.dialect
        self.connection = Mutex(nil)
        self.engine = Mutex(engine)
        self.servedByEngine = true
    }

    /// Opens (creating if needed) the database file at `path`.
    public convenience init(path: String, options: Options = Options()) throws(StorageError) {
        try self.init(.file(path), options: options)
    }

    deinit {
        connection.withLock { core in
            core?.close()
            core = nil
        }
        engine.withLock { engine in
            engine?.close()
            engine = nil
        }
    }

    /// The file path (`:memory:` for an in-memory database).
    public var path: String { location.path }

    /// Closes the connection; later calls throw a `misuse` error. Closing twice is harmless.
    public func close() throws(StorageError) {
        try checkNotReentrant()
        connection.withLock { core in
            core?.close()
            core = nil
        }
        engine.withLock { engine in
            engine?.close()
            engine = nil
        }
    }

    /// Whether `close()` was called.
    public var isClosed: Bool {
        servedByEngine ? engine.withLock { $0 == nil } : connection.withLock { $0 == nil }
    }

    /// Runs `body` with exclusive use of the connection.
    ///
    /// Use it to run several statements without other callers interleaving (wrap them in
    /// `transaction` when they must also commit together).
    @discardableResult
    public func withConnection<T>(_ body: (borrowing Connection) throws -> T) throws -> T {
        try checkNotReentrant()
        if servedByEngine {
            return try withEngine { engine in
                let connection = Connection(engine: engine)
                return try body(connection)
            }
        }
        var result: T?
        try connection.withLock { (core: inout ConnectionCore?) throws -> Void in
            guard let open = core else { throw StorageError.closed(path: location.path) }
            owner.store(ThreadIdentity.current, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            result = try body(Connection(core: open))
        }
        guard let result else { throw StorageError.closed(path: location.path) }
        return result
    }

    /// Starts listening on `channel` on a connection of its own (see `Connection.notify`),
    /// calling `deliver` with each payload on a thread of the listener's; nil on SQLite, which
    /// has no notifications.
    public func listen(_ channel: String, deliver: @escaping @Sendable (String) -> Void) throws
        -> (any SQLListener)?
    {
        guard servedByEngine else { return nil }
        return try withEngine { engine in try engine.listen(channel, deliver: deliver) }
    }

    /// Runs `body` with the engine's connection under the lock.
    private func withEngine<T>(_ body: (any SQLEngine) throws -> T) throws -> T {
        var result: T?
        try engine.withLock { (engine: inout (any SQLEngine)?) throws -> Void in
            guard let open = engine else { throw StorageError.closed(path: location.path) }
            owner.store(ThreadIdentity.current, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            result = try body(open)
        }
        guard let result else { throw StorageError.closed(path: location.path) }
        return result
    }

    /// Runs `body` with the connection (SQLite's or an engine's), for calls that can only fail
    /// with `StorageError`.
    @usableFromInline
    func withAnyConnection<T>(_ body: (borrowing Connection) throws(StorageError) -> T) throws(StorageError)
        -> T
    {
        if servedByEngine { return try withEngineConnection(body) }
        return try withCore { core throws(StorageError) in
            let connection = Connection(core: core)
            return try body(connection)
        }
    }

    /// `withAnyConnection` on an engine: the connection is made and lent under the lock, and the
    /// outcome carried out of it as a value (a closure that only rethrows `StorageError`).
    private func withEngineConnection<T>(_ body: (borrowing Connection) throws(StorageError) -> T)
        throws(StorageError) -> T
    {
        try checkNotReentrant()
        var outcome: Result<T, StorageError> = .failure(StorageError.closed(path: location.path))
        engine.withLock { (engine: inout (any SQLEngine)?) -> Void in
            guard let open = engine else { return }
            owner.store(ThreadIdentity.current, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            let connection = Connection(engine: open)
            do throws(StorageError) {
                outcome = .success(try body(connection))
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Runs `body` with SQLite's connection, for calls that can only fail with `StorageError`.
    @usableFromInline
    func withCore<T>(_ body: (ConnectionCore) throws(StorageError) -> T) throws(StorageError) -> T {
        try checkNotReentrant()
        var result: T?
        try connection.withLock { (core: inout ConnectionCore?) throws(StorageError) -> Void in
            guard let open = core else { throw StorageError.closed(path: location.path) }
            owner.store(ThreadIdentity.current, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            result = try body(open)
        }
        guard let result else { throw StorageError.closed(path: location.path) }
        return result
    }

    private func checkNotReentrant() throws(StorageError) {
        if owner.load(ordering: .relaxed) == ThreadIdentity.current {
            throw StorageError(
                code: .misuse,
                message: "the database was called from inside its own withConnection/transaction closure, "
                    + "which would deadlock; use the Connection the closure receives",
                path: location.path)
        }
    }
}
