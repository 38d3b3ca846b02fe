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
    @usableFromInline let core: StatementCore
    @usableFromInline let connection: ConnectionCore

    init(core: StatementCore, connection: ConnectionCore) {
        self.core = core
        self.connection = connection
    }

    deinit { connection.checkIn(core) }

    /// The SQL text.
    public var sql: String { core.sql }

    /// How many `?` parameters the statement takes.
    public var parameterCount: Int { core.parameterCount }

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
        try core.run(binding: body, core: connection)
    }

    /// Binds an array of values in order and runs the statement.
    @inlinable @discardableResult
    public func execute(bindings: [(any SQLBindable)?]) throws(StorageError) -> Int {
        try core.bind(bindings, core: connection)
        return try core.run(core: connection)
    }

    /// Binds the values, runs the query and materializes every row.
    public func query(_ bindings: (any SQLBindable)?...) throws(StorageError) -> [Row] {
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
        try core.bind(bindings, core: connection)
        do {
            return try core.map(core: connection, map)
        } catch {
            core.reset()
            throw error
        }
    }
}
