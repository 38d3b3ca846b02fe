extension Database {
    /// Runs one statement with its `?` parameters bound in order.
    ///
    /// - Returns: The number of rows changed (for INSERT, UPDATE, DELETE).
    @discardableResult
    public func execute(_ sql: String, _ bindings: (any SQLBindable)?...) throws(StorageError) -> Int {
        try execute(sql, bindings: bindings)
    }

    /// Runs one statement with its parameters bound in order; the fast path when every value
    /// has a static type (a bare `nil` picks the variadic overload above).
    @inlinable @discardableResult
    public func execute<each Value: SQLBindable>(_ sql: String, _ values: repeat each Value)
        throws(StorageError) -> Int
    {
        try withAnyConnection { connection throws(StorageError) in
            try connection.execute(sql, repeat each values)
        }
    }

    /// Runs one statement, binding its parameters with `body` (see `SQLBinder`).
    @inlinable @discardableResult
    public func execute(_ sql: String, binding body: (inout SQLBinder) throws -> Void) throws -> Int {
        try withConnection { connection in try connection.execute(sql, binding: body) }
    }

    /// Runs one statement with an array of bindings.
    @discardableResult
    public func execute(_ sql: String, bindings: [(any SQLBindable)?]) throws(StorageError) -> Int {
        try withAnyConnection { connection throws(StorageError) in
            try connection.execute(sql, bindings: bindings)
        }
    }

    /// Runs SQL text holding any number of statements, without bindings.
    public func executeScript(_ sql: String) throws(StorageError) {
        try withAnyConnection { connection throws(StorageError) in try connection.executeScript(sql) }
    }

    /// Runs a query and materializes every row.
    public func query(_ sql: String, _ bindings: (any SQLBindable)?...) throws(StorageError) -> [Row] {
        try query(sql, bindings: bindings)
    }

    /// Runs a query with an array of bindings and materializes every row.
    public func query(_ sql: String, bindings: [(any SQLBindable)?]) throws(StorageError) -> [Row] {
        try withAnyConnection { connection throws(StorageError) in
            try connection.query(sql, bindings: bindings)
        }
    }

    /// Runs a query and maps each row with `map`, the fast way to read many rows.
    @inlinable
    public func query<T>(
        _ sql: String, _ bindings: (any SQLBindable)?..., map: (borrowing RowCursor) throws -> T
    ) throws -> [T] {
        try withConnection { connection in try connection.query(sql, bindings: bindings, map: map) }
    }

    /// Runs a query with an array of bindings and maps each row.
    @inlinable
    public func query<T>(
        _ sql: String, bindings: [(any SQLBindable)?], map: (borrowing RowCursor) throws -> T
    ) throws -> [T] {
        try withConnection { connection in try connection.query(sql, bindings: bindings, map: map) }
    }

    /// Runs a query and maps its first row, or returns `nil` when there is none.
    public func queryFirst<T>(
        _ sql: String, _ bindings: (any SQLBindable)?..., map: (borrowing RowCursor) throws -> T
    ) throws -> T? {
        try withConnection { connection in try connection.queryFirst(sql, bindings: bindings, map: map) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Nested `transaction` calls on the connection become savepoints. Pass `synchronous:
    /// .full` for a commit that must survive power loss on a database opened `.normal`.
    ///
    /// ```swift
    /// try db.transaction(synchronous: .full) { db in
    ///     try db.execute("INSERT INTO journal (token, body) VALUES (?, ?)", token, body)
    /// }
    /// ```
    @discardableResult
    public func transaction<T>(
        _ mode: TransactionMode = .immediate, synchronous: Synchronous? = nil,
        _ body: (borrowing Connection) throws -> T
    ) throws -> T {
        try withConnection { connection in try connection.transaction(mode, synchronous: synchronous, body) }
    }

    /// The rowid of the last row inserted through this database. With several threads writing,
    /// read it inside the `withConnection` or `transaction` closure that inserted.
    public var lastInsertRowID: Int64 {
        get throws(StorageError) {
            try withAnyConnection { connection throws(StorageError) in connection.lastInsertRowID }
        }
    }

    /// The rows changed by the last INSERT, UPDATE or DELETE through this database (or use the
    /// count `execute` returns).
    public var changes: Int {
        get throws(StorageError) {
            try withAnyConnection { connection throws(StorageError) in connection.changes }
        }
    }
}
