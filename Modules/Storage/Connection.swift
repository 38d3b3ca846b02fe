import CSQLite

/// Exclusive use of a database's connection, lent to a closure by `Database.withConnection`
/// or `Database.transaction`.
///
/// A connection is `~Copyable` and only borrowed, so it cannot escape the closure that holds
/// the database's lock. It offers the same calls as `Database`, plus `prepare` for statements
/// run many times and nested `transaction`s (savepoints). It is SQLite's connection, or an
/// engine's (`SQLEngine`) for a database opened with `Database(engine:)`.
public struct Connection: ~Copyable {
    /// SQLite's connection, or nil on an engine's.
    @usableFromInline let sqlite: ConnectionCore?
    /// The engine's connection, or nil on SQLite's.
    @usableFromInline let engine: (any SQLEngine)?

    init(core: ConnectionCore) {
        sqlite = core
        engine = nil
    }

    init(engine: any SQLEngine) {
        sqlite = nil
        self.engine = engine
    }

    /// SQLite's connection; only called after `engine` was found nil.
    @usableFromInline var core: ConnectionCore { sqlite! }

    /// The database file (`:memory:` for an in-memory database), or an engine's location.
    public var path: String { engine?.location ?? core.path }

    /// The SQL this connection's database speaks.
    public var dialect: SQLDialect { engine?.dialect ?? .sqlite }

    /// Runs one statement with its `?` parameters bound in order.
    ///
    /// - Returns: The number of rows changed (for INSERT, UPDATE, DELETE).
    /// - Complexity: one prepared-statement cache lookup by SQL text, then SQLite's work.
    @inlinable @discardableResult
    public func execute(_ sql: String, _ bindings: (any SQLBindable)?...) throws(StorageError) -> Int {
        try execute(sql, bindings: bindings)
    }

    /// Runs one statement with its parameters bound in order; the fast path when every value
    /// has a static type (a bare `nil` picks the variadic overload above).
    @inlinable @discardableResult
    public func execute<each Value: SQLBindable>(_ sql: String, _ values: repeat each Value)
        throws(StorageError) -> Int
    {
        if let engine { return try engine.execute(sql, engineValues(repeat each values)) }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(repeat each values, core: core)
        return try statement.run(core: core)
    }

    /// Runs one statement, binding its parameters with `body` (see `SQLBinder`): the fastest
    /// way to run a cached statement in a loop.
    @inlinable @discardableResult
    public func execute(_ sql: String, binding body: (inout SQLBinder) throws -> Void) throws -> Int {
        if let engine {
            var binder = SQLBinder(collecting: ())
            try body(&binder)
            return try engine.execute(sql, binder.collected)
        }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        return try statement.run(binding: body, core: core)
    }

    /// Runs one statement with an array of bindings.
    @inlinable @discardableResult
    public func execute(_ sql: String, bindings: [(any SQLBindable)?]) throws(StorageError) -> Int {
        if let engine { return try engine.execute(sql, engineValues(bindings)) }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(bindings, core: core)
        return try statement.run(core: core)
    }

    /// Runs SQL text holding any number of statements (a schema script), without bindings and
    /// without caching.
    public func executeScript(_ sql: String) throws(StorageError) {
        if let engine { return try engine.executeScript(sql) }
        try core.executeScript(sql)
    }

    /// Runs a query and materializes every row.
    public func query(_ sql: String, _ bindings: (any SQLBindable)?...) throws(StorageError) -> [Row] {
        try query(sql, bindings: bindings)
    }

    /// Runs a query with an array of bindings and materializes every row.
    public func query(_ sql: String, bindings: [(any SQLBindable)?]) throws(StorageError) -> [Row] {
        if let engine { return try engine.query(sql, engineValues(bindings)) }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(bindings, core: core)
        return try statement.rows(core: core)
    }

    /// Runs a query and maps each row with `map`, the fast way to read many rows.
    ///
    /// ```swift
    /// let media = try db.query("SELECT id, likes FROM media WHERE author = ?", author) { row in
    ///     StoredMedia(id: try row.string(0), likes: try row.int(1))
    /// }
    /// ```
    @inlinable
    public func query<T>(
        _ sql: String, _ bindings: (any SQLBindable)?..., map: (borrowing RowCursor) throws -> T
    ) throws -> [T] {
        try query(sql, bindings: bindings, map: map)
    }

    /// Runs a query with an array of bindings and maps each row.
    @inlinable
    public func query<T>(
        _ sql: String, bindings: [(any SQLBindable)?], map: (borrowing RowCursor) throws -> T
    ) throws -> [T] {
        if let engine {
            return try engine.query(sql, engineValues(bindings)).map { row in try map(RowCursor(row: row)) }
        }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(bindings, core: core)
        return try statement.map(core: core, map)
    }

    /// Runs a query and maps its first row, or returns `nil` when there is none.
    public func queryFirst<T>(
        _ sql: String, _ bindings: (any SQLBindable)?..., map: (borrowing RowCursor) throws -> T
    ) throws -> T? {
        try queryFirst(sql, bindings: bindings, map: map)
    }

    /// Runs a query with an array of bindings and maps its first row, or returns `nil` when
    /// there is none.
    public func queryFirst<T>(
        _ sql: String, bindings: [(any SQLBindable)?], map: (borrowing RowCursor) throws -> T
    ) throws -> T? {
        if let engine {
            guard let row = try engine.query(sql, engineValues(bindings)).first else { return nil }
            return try map(RowCursor(row: row))
        }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(bindings, core: core)
        guard try statement.step(core: core) else { return nil }
        return try map(RowCursor(statement: statement, core: core))
    }

    /// Runs a query and calls `body` for each row, without collecting results.
    public func forEach(
        _ sql: String, _ bindings: (any SQLBindable)?..., body: (borrowing RowCursor) throws -> Void
    ) throws {
        if let engine {
            for row in try engine.query(sql, engineValues(bindings)) { try body(RowCursor(row: row)) }
            return
        }
        let (statement, _) = try core.checkOut(sql)
        defer { core.checkIn(statement) }
        try statement.bind(bindings, core: core)
        let cursor = RowCursor(statement: statement, core: core)
        while try statement.step(core: core) { try body(cursor) }
    }

    /// Prepares a statement to run many times (a batch insert), from the cache when possible.
    ///
    /// The statement is valid inside the closure that received this connection.
    public func prepare(_ sql: String) throws(StorageError) -> Statement {
        if let engine { return Statement(engine: engine, sql: sql) }
        let (statement, _) = try core.checkOut(sql)
        return Statement(core: statement, connection: core)
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int64 { engine?.lastInsertRowID ?? sqlite3_last_insert_rowid(core.handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int { engine?.changes ?? Int(sqlite3_changes(core.handle)) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { engine?.isInTransaction ?? core.isInTransaction }

    /// The schema version stored in the file (`PRAGMA user_version`), which migrations advance.
    public func userVersion() throws(StorageError) -> Int {
        if let engine { return try engine.schemaVersion() }
        return try core.scalarInt("PRAGMA user_version")
    }

    /// Tells every listener of `channel`, on any connection and in any process, `payload` when
    /// this transaction commits (`Database.listen(_:deliver:)`). SQLite has no notifications:
    /// there it does nothing, and a reader that must see other processes' writes re-reads.
    public func notify(_ channel: String, _ payload: String) throws(StorageError) {
        try engine?.notify(channel, payload)
    }

    /// Records the schema version a migration reached.
    func setUserVersion(_ version: Int) throws(StorageError) {
        if let engine { return try engine.setSchemaVersion(version) }
        try core.execute("PRAGMA user_version = \(version)")
    }
}
