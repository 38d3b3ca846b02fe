import CSQLite

/// Binds values to a statement's `?` parameters one after another, lent to the closure of
/// `Statement.execute(binding:)`.
///
/// Each `bind` is resolved at compile time for the value's type, so a batch insert pays no
/// dynamic dispatch per value.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO media (id, text, pixels) VALUES (?, ?, ?)")
/// for item in items {
///     try insert.execute { row in
///         try row.bind(item.id)
///         try row.bind(item.text)
///         try row.bind(item.pixels)
///     }
/// }
/// ```
public struct SQLBinder: ~Copyable {
    /// SQLite's statement, or nil when the values are collected for an engine.
    @usableFromInline let statement: OpaquePointer?
    @usableFromInline var bound: Int32 = 0
    /// The values bound for an engine (`SQLEngine`), in order.
    @usableFromInline var collected: [SQLValue] = []

    /// How many values were bound so far.
    @inlinable
    public var count: Int { Int(bound) }

    @inlinable
    init(statement: OpaquePointer) { self.statement = statement }

    /// A binder that collects the values, for an engine.
    @usableFromInline
    init(collecting: Void) { statement = nil }

    /// Binds `value` to the next parameter.
    @inlinable
    public mutating func bind<Value: SQLBindable>(_ value: Value) throws(StorageError) {
        bound += 1
        guard let statement else { return collected.append(value.sqlValue) }
        try value.bind(to: SQLParameter(statement: statement, index: bound))
    }

    /// Binds `NULL` to the next parameter.
    @inlinable
    public mutating func bindNull() throws(StorageError) {
        bound += 1
        guard let statement else { return collected.append(.null) }
        try SQLParameter(statement: statement, index: bound).bindNull()
    }
}
