/// A database engine other than the SQLite this module opens itself, serving the same
/// `Database`, `Connection`, `Statement` and `RowCursor` calls, so code written against them
/// runs on either (PostgresStorage's `PostgresEngine` is one).
///
/// A `Database` made with `init(engine:)` owns its engine and uses it under its lock, from one
/// thread at a time; the engine needs no locking of its own. Statements keep SQLite's `?` and
/// `?NNN` parameters (an engine translates them), and their SQL is written in the subset both
/// dialects share; where they differ, code asks `Connection.dialect`.
public protocol SQLEngine: AnyObject {
    /// The SQL the engine speaks.
    var dialect: SQLDialect { get }
    /// Where the data lives, for messages (a URL without its password).
    var location: String { get }
    /// Runs one statement with its parameters, in order.
    ///
    /// - Returns: The rows changed (INSERT, UPDATE, DELETE), else 0.
    func execute(_ sql: String, _ values: [SQLValue]) throws(StorageError) -> Int
    /// Runs one query with its parameters and returns every row.
    func query(_ sql: String, _ values: [SQLValue]) throws(StorageError) -> [Row]
    /// Runs SQL text holding any number of statements, without parameters.
    func executeScript(_ sql: String) throws(StorageError)
    /// Begins an outermost transaction of `mode`: `.immediate` and `.exclusive` ones are
    /// writes, which the engine runs one at a time across every connection (as SQLite does), so
    /// code that reads and then writes in one transaction never interleaves with another
    /// writer; `.deferred` ones read one consistent snapshot.
    func begin(_ mode: TransactionMode) throws(StorageError)
    /// Whether a transaction is open.
    var isInTransaction: Bool { get }
    /// How many savepoints are open inside the current transaction (kept by `Connection`).
    var savepointDepth: Int { get set }
    /// The schema version migrations reached (0 for a new database).
    func schemaVersion() throws(StorageError) -> Int
    /// Records the schema version a migration reached, inside its transaction.
    func setSchemaVersion(_ version: Int) throws(StorageError)
    /// The id of the last row inserted on this connection, or 0.
    var lastInsertRowID: Int64 { get }
    /// The rows changed by the last statement on this connection.
    var changes: Int { get }
    /// Ends the connection; later calls fail.
    func close()
    /// Tells every listener of `channel` (on any connection, in any process) `payload`, when the
    /// current transaction commits (at once outside one). An engine without notifications does
    /// nothing.
    func notify(_ channel: String, _ payload: String) throws(StorageError)
    /// Starts listening on `channel` on a connection of its own, calling `deliver` with each
    /// payload (on a thread of the listener's), until the listener is stopped; nil for an engine
    /// without notifications.
    func listen(_ channel: String, deliver: @escaping @Sendable (String) -> Void) throws(StorageError)
        -> (any SQLListener)?
}

extension SQLEngine {
    /// No notifications.
    public func notify(_ channel: String, _ payload: String) throws(StorageError) {}

    /// No notifications.
    public func listen(_ channel: String, deliver: @escaping @Sendable (String) -> Void) throws(StorageError)
        -> (any SQLListener)?
    {
        nil
    }
}

/// A listener started by `Database.listen(_:deliver:)`.
public protocol SQLListener: Sendable {
    /// Stops listening and closes the listener's connection; no payload is delivered after it
    /// returns.
    func stop()
}

/// The SQL a database speaks, for the statements that differ between engines.
public enum SQLDialect: String, Hashable, Sendable, CaseIterable {
    /// SQLite, the engine this module opens itself.
    case sqlite
    /// PostgreSQL, through PostgresStorage.
    case postgres

    /// The function that returns the larger of its arguments: SQLite's two-argument `MAX`,
    /// PostgreSQL's `GREATEST`.
    public var greatest: String { self == .sqlite ? "MAX" : "GREATEST" }

    /// The function that returns the smaller of its arguments (`MIN`, `LEAST`).
    public var least: String { self == .sqlite ? "MIN" : "LEAST" }
}

/// The values of a parameter list as an engine binds them.
@inlinable
func engineValues(_ bindings: [(any SQLBindable)?]) -> [SQLValue] {
    bindings.map { $0?.sqlValue ?? .null }
}

/// The values of a parameter pack as an engine binds them.
@inlinable
func engineValues<each Value: SQLBindable>(_ values: repeat each Value) -> [SQLValue] {
    var result: [SQLValue] = []
    repeat result.append((each values).sqlValue)
    return result
}
