/// A prepared statement to run many times, from `Connection.prepare`.
///
/// `~Copyable` and valid only inside the closure whose connection prepared it. Each call binds
/// its values, runs, and resets the statement, so it holds no lock between calls.
///
/// ```swift
/// try db.transaction { db in
///     let insert = try db.prepare("INSERT INTO journal (token, body) VALUES (?, ?)")
///     for entry in entries { try insert.execute(entry.token, entry.body) }
/// }
/// ```
///
/// In the hottest loops bind through `execute(binding:)`, which resolves each value's type at
/// compile time (`execute(values...)` costs about 10% more per row).
public struct Statement: ~Copyable {
    /// SQLite's prepared statement and connection, or nil on an engine's connection.
    @usableFromInline let sqlite: (statement: StatementCore, connection: ConnectionCore)?
    /// The engine that runs the SQL each time, or nil on SQLite's connection.
    @usableFromInline let engine: (any SQLEngine)?
    /// The SQL text.
    public let sql: String

    init(core: StatementCore, connection: ConnectionCore) {
        sqlite = (core, connection)
        engine = nil
        sql = core.sql
    }

    init(engine: any SQLEngine, sql: String) {
        sqlite = nil
        self.engine = engine
        self.sql = sql
    }

    deinit { if let sqlite { sqlite.connection.checkIn(sqlite.statement) } }

    @usableFromInline var core: StatementCore { sqlite!.statement }
    @usableFromInline var connection: ConnectionCore { sqlite!.connection }

    /// How many `?` parameters the statement takes (on an engine: the largest `?NNN`, or the
    /// number of `?`).
    public var parameterCount: Int { sqlite?.statement.parameterCount ?? SQLParameters.count(in: sql) }

    /// Binds the values in order and runs the statement.
    ///
    /// - Returns: The number of rows changed.
    @inlinable @discardableResult
    public func execute(_ bindings: (any SQLBindable)?...) throws(StorageError) -> Int {
        try execute(bindings: bindings)
    }

    /// Binds the values in order and runs the statement; the fast path when every value has a
    /// static type (a bare `nil` picks the variadic overload above).
    ///
    /// - Returns: The number of rows changed.
    @inlinable @discardableResult
    public func execute<each Value: SQLBindable>(_ values: repeat each Value) throws(StorageError) -> Int {
        if let engine { return try engine.execute(sql, engineValues(repeat each values)) }
        try core.bind(repeat each values, core: connection)
        return try core.run(core: connection)
    }

    /// Binds values with `body`, in parameter order, and runs the statement: the fastest way to
    /// run one statement many times (every `bind` is resolved at compile time).
    ///
    /// - Returns: The number of rows changed.
    /// - Throws: A `range` error when `body` binds more or fewer values than the statement has
    ///   parameters; any error `body` throws.
    @inlinable @discardableResult
    public func execute(binding body: (inout SQLBinder) throws -> Void) throws -> Int {
        if let engine {
            var binder = SQLBinder(collecting: ())
            try body(&binder)
            return try engine.execute(sql, binder.collected)
        }
        return try core.run(binding: body, core: connection)
    }

    /// Binds an array of values in order and runs the statement.
    @inlinable @discardableResult
    public func execute(bindings: [(any SQLBindable)?]) throws(StorageError) -> Int {
        if let engine { return try engine.execute(sql, engineValues(bindings)) }
        try core.bind(bindings, core: connection)
        return try core.run(core: connection)
    }

    /// Binds the values, runs the query and materializes every row.
    public func query(_ bindings: (any SQLBindable)?...) throws(StorageError) -> [Row] {
        if let engine { return try engine.query(sql, engineValues(bindings)) }
        try core.bind(bindings, core: connection)
        return try core.rows(core: connection)
    }

    /// Binds the values, runs the query and maps each row.
    @inlinable
    public func query<T>(_ bindings: (any SQLBindable)?..., map: (borrowing RowCursor) throws -> T) throws
        -> [T]
    {
        try query(bindings: bindings, map: map)
    }

    /// Binds an array of values, runs the query and maps each row.
    @inlinable
    public func query<T>(bindings: [(any SQLBindable)?], map: (borrowing RowCursor) throws -> T) throws -> [T]
    {
        if let engine {
            return try engine.query(sql, engineValues(bindings)).map { row in try map(RowCursor(row: row)) }
        }
        try core.bind(bindings, core: connection)
        do {
            return try core.map(core: connection, map)
        } catch {
            core.reset()
            throw error
        }
    }
}
