import CLibPQ
import Foundation
import Storage

/// A PostgreSQL connection serving Storage's `Database`, `Connection` and `RowCursor`, so code
/// written for SQLite runs on PostgreSQL unchanged but for the SQL the two dialects spell
/// differently (see `Connection.dialect`).
///
/// ```swift
/// let database = try Database.postgres("postgres://loom@127.0.0.1:5432/loom")
/// try database.migrate(migrations)
/// let names = try database.query("SELECT name FROM users WHERE id > ?", 10) { try $0.string(0) }
/// ```
///
/// - Parameters are SQLite's `?` and `?NNN`, sent as PostgreSQL's `$n`; each statement is
///   prepared once per connection and reused.
/// - Results come back in binary: integers and booleans read as integers (`bool` reads them),
///   `bytea` as bytes, text as text, `numeric` as an integer when whole.
/// - Errors are `StorageError`s: a unique or foreign-key violation is `.constraint`, a
///   serialization failure or deadlock `.busy`, a full disk `.full`, a lost server `.ioError`.
/// - A statement is prepared with the types of the values first bound to it: integers as
///   `int8` (SQLite's are 64-bit), reals as `float8`, blobs as `bytea`; text and NULL parameters
///   take the type their place in the SQL gives them.
/// - Write transactions (`.immediate`, `.exclusive`) take one advisory lock shared by every
///   connection to the database, so writes run one at a time across processes as they do on
///   SQLite; reads (`.deferred`) run beside them on a snapshot.
///
/// `@unchecked Sendable` invariant: the engine is used only by the `Database` that owns it,
/// under that database's lock, so one thread at a time.
public final class PostgresEngine: SQLEngine, @unchecked Sendable {
    public let dialect = SQLDialect.postgres
    public let location: String
    public var savepointDepth = 0
    public private(set) var changes = 0

    private var connection: OpaquePointer?
    /// The name of each statement prepared on this connection, by its SQL text.
    private var prepared: [String: (name: String, parameters: Int)] = [:]

    /// The advisory lock every write transaction takes (any constant shared by all processes).
    static let writeLock: Int64 = 0x4c6f_6f6d_5772_6974

    /// Where the database is, as given (with its password, if any).
    private let url: String
    /// The settings every session of this connection starts with (again after a reconnect).
    private let sessionSettings: String

    /// Connects to the database a `postgres://` URL (or a libpq keyword string) names.
    ///
    /// - Parameters:
    ///   - url: where the database is.
    ///   - readOnly: whether every transaction on this connection only reads (the server
    ///     refuses a write), for connections that serve reads.
    /// - Throws: `StorageError` `.cannotOpen` with the server's reason when it cannot connect.
    public init(_ url: String, readOnly: Bool = false) throws(StorageError) {
        self.url = url
        location = Self.redacted(url)
        sessionSettings =
            "SET client_encoding = 'UTF8'; SET client_min_messages = warning"
            + (readOnly ? "; SET default_transaction_read_only = on" : "")
        connection = PQconnectdb(url)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            self.connection = nil
            throw StorageError(
                code: .cannotOpen, engineCode: "PostgreSQL",
                message: "cannot connect to PostgreSQL at \(Self.redacted(url)): \(reason)", path: location)
        }
        // Notices ("relation already exists, skipping") are not errors and must not reach the
        // terminal; the server's messages are read from results instead.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try executeScript(sessionSettings)
    }

    deinit { close() }

    public func close() {
        if let connection { PQfinish(connection) }
        connection = nil
        prepared = [:]
    }

    public var isInTransaction: Bool {
        guard let connection else { return false }
        // A dropped connection's status is "unknown": no transaction survives it.
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Begins a transaction. A connection the server dropped while idle (a restart) is found
    /// dead only when used: beginning is then tried once more on a new connection, which is
    /// safe because nothing of the transaction ran yet.
    public func begin(_ mode: TransactionMode) throws(StorageError) {
        let sql =
            switch mode {
            case .deferred: "BEGIN ISOLATION LEVEL REPEATABLE READ"
            case .immediate, .exclusive: "BEGIN; SELECT pg_advisory_xact_lock(\(Self.writeLock))"
            }
        do {
            try executeScript(sql)
        } catch  where connection.map(PQstatus) == CONNECTION_BAD {
            try executeScript(sql)
        }
    }

    public func execute(_ sql: String, _ values: [SQLValue]) throws(StorageError) -> Int {
        let result = try run(sql, values)
        defer { PQclear(result) }
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        return changes
    }

    public func query(_ sql: String, _ values: [SQLValue]) throws(StorageError) -> [Row] {
        let result = try run(sql, values)
        defer { PQclear(result) }
        return PostgresValues.rows(of: result)
    }

    public func executeScript(_ sql: String) throws(StorageError) {
        let connection = try open()
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    public func schemaVersion() throws(StorageError) -> Int {
        let exists = try query("SELECT to_regclass('storage_schema') IS NOT NULL", [])
        guard try exists.first?.bool(0) == true else { return 0 }
        return try query("SELECT COALESCE(MAX(version), 0) FROM storage_schema", []).first?.int(0) ?? 0
    }

    public func setSchemaVersion(_ version: Int) throws(StorageError) {
        try executeScript(
            """
            CREATE TABLE IF NOT EXISTS storage_schema (version BIGINT NOT NULL);
            DELETE FROM storage_schema;
            INSERT INTO storage_schema (version) VALUES (\(version));
            """)
    }

    /// `pg_notify(channel, payload)`: delivered to every listener when the transaction commits.
    public func notify(_ channel: String, _ payload: String) throws(StorageError) {
        _ = try query("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)])
    }

    /// A `PostgresListener` on a connection of its own to this engine's database.
    public func listen(_ channel: String, deliver: @escaping @Sendable (String) -> Void) throws(StorageError)
        -> (any SQLListener)?
    {
        try PostgresListener(url: url, channel: channel, deliver: deliver)
    }

    public var lastInsertRowID: Int64 {
        // lastval() fails until this session inserted into a table with an identity; then 0.
        guard !isInTransaction || PQtransactionStatus(connection) != PQTRANS_INERROR else { return 0 }
        let savepoint = isInTransaction
        if savepoint { _ = try? executeScript("SAVEPOINT storage_last_insert") }
        defer { if savepoint { _ = try? executeScript("RELEASE storage_last_insert") } }
        do {
            return try query("SELECT lastval()", []).first?.int64(0) ?? 0
        } catch {
            if savepoint { _ = try? executeScript("ROLLBACK TO storage_last_insert") }
            return 0
        }
    }

    // MARK: - Running statements

    /// The connection, reconnected first when the server dropped it (a restart, a failover):
    /// the statements prepared on the old session are gone with it.
    private func open() throws(StorageError) -> OpaquePointer {
        guard let connection else {
            throw StorageError(code: .misuse, message: "the PostgreSQL connection is closed", path: location)
        }
        if PQstatus(connection) == CONNECTION_BAD {
            prepared = [:]
            savepointDepth = 0
            PQreset(connection)
            guard PQstatus(connection) == CONNECTION_OK else {
                throw StorageError(
                    code: .ioError, engineCode: "PostgreSQL",
                    message: "lost the connection to PostgreSQL at \(location) and cannot reconnect: "
                        + Self.trimmed(PQerrorMessage(connection)),
                    path: location)
            }
            let result = PQexec(connection, sessionSettings)
            defer { PQclear(result) }
            try check(result, sql: sessionSettings)
        }
        return connection
    }

    /// Prepares `sql` once (its `?` parameters as `$n`), then runs it with `values`.
    private func run(_ sql: String, _ values: [SQLValue]) throws(StorageError) -> OpaquePointer {
        let connection = try open()
        let statement: (name: String, parameters: Int)
        if let known = prepared[sql] {
            statement = known
        } else {
            let (text, count) = SQLParameters.rewrite(sql) { "$\($0)" }
            let name = "s\(prepared.count + 1)"
            // SQLite's integers are 64-bit: a parameter first bound an integer is an int8 (left
            // to inference, `?3 > 0` would make it an int4 that Int64.max overflows); blobs are
            // bytea, reals float8, and text and NULL take the type their place in the SQL gives.
            let types: [Oid] = (0..<count).map { index in
                guard index < values.count else { return 0 }
                switch values[index] {
                case .integer: return 20
                case .real: return 701
                case .blob: return 17
                case .text, .null: return 0
                }
            }
            let result = PQprepare(connection, name, text, Int32(count), types)
            defer { PQclear(result) }
            try check(result, sql: sql)
            statement = (name, count)
            prepared[sql] = statement
        }
        guard values.count == statement.parameters else {
            throw StorageError(
                code: .range,
                message:
                    "the statement has \(statement.parameters) parameter(s) but \(values.count) value(s) "
                    + "were bound",
                sql: sql, path: location)
        }
        let encoded = values.map(PostgresValues.parameter)
        let result = PostgresValues.withParameters(encoded) { pointers, lengths, formats in
            PQexecPrepared(connection, statement.name, Int32(encoded.count), pointers, lengths, formats, 1)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else {
            throw StorageError(
                code: .noMemory, message: "PostgreSQL returned no result", sql: sql, path: location)
        }
        return result
    }

    /// Throws the server's error for a failed result.
    private func check(_ result: OpaquePointer?, sql: String) throws(StorageError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map {
                String(cString: $0)
            }
            let message =
                result.map { Self.trimmed(PQresultErrorMessage($0)) }.flatMap { $0.isEmpty ? nil : $0 }
                ?? connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "the connection is closed"
            throw StorageError(
                code: Self.code(forState: state, connectionLost: connection.map(PQstatus) == CONNECTION_BAD),
                engineCode: state ?? "PostgreSQL", message: message, sql: sql, path: location)
        }
    }

    /// The Storage error code for a SQLSTATE.
    static func code(forState state: String?, connectionLost: Bool) -> StorageError.Code {
        if connectionLost { return .ioError }
        guard let state else { return .error }
        switch state {
        case "40001", "40P01", "55P03": return .busy
        case "53100": return .full
        case "53200": return .noMemory
        case "42501": return .permission
        case "3D000": return .cannotOpen
        case "25006": return .readOnly
        case "57014": return .interrupt
        default: break
        }
        switch state.prefix(2) {
        case "23": return .constraint
        case "08", "57", "58": return .ioError
        default: return .error
        }
    }

    /// The URL with its password replaced by `***`, for messages.
    public static func redacted(_ url: String) -> String {
        guard let components = URLComponents(string: url), components.password != nil else { return url }
        var shown = components
        shown.password = "***"
        return shown.string ?? url
    }

    static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: " ")
    }
}

extension Database {
    /// A database on PostgreSQL, at a `postgres://` URL (see `PostgresEngine`); with
    /// `readOnly`, one whose transactions only read.
    public static func postgres(_ url: String, readOnly: Bool = false) throws(StorageError) -> Database {
        Database(engine: try PostgresEngine(url, readOnly: readOnly))
    }
}
