import CSQLite

/// A failure reported by SQLite or by the Storage wrapper: SQLite's result code, its message,
/// the SQL being run and the database file, with a hint on how to fix it.
///
/// ```text
/// SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: users.handle
///   SQL: INSERT INTO users (handle) VALUES (?)
///   hint: the row breaks a UNIQUE, PRIMARY KEY, NOT NULL, CHECK or FOREIGN KEY constraint; ...
/// ```
///
/// Errors the wrapper detects itself use the closest SQLite code: `misuse` (a closed database,
/// re-entrant use), `range` (wrong number of bindings, a column index out of range),
/// `mismatch` (reading a column as the wrong type), `schema` (a migration problem).
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code (`busy`, `constraint`, `notADatabase`, ...).
    public let code: Code
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067); equals the primary
    /// code's raw value when there is no extended detail.
    public let extendedCode: Int32
    /// SQLite's message, or the wrapper's, quoting the offending value.
    public let message: String
    /// The SQL being prepared or run, if any.
    public let sql: String?
    /// The database file (`:memory:` for an in-memory database), if known.
    public let path: String?

    /// Makes an error; `extendedCode` defaults to the primary code.
    public init(
        code: Code, extendedCode: Int32? = nil, message: String, sql: String? = nil, path: String? = nil
    ) {
        self.code = code
        self.extendedCode = extendedCode ?? code.rawValue
        self.message = message
        self.sql = sql
        self.path = path
        self.engineCode = nil
    }

    /// An error an engine other than SQLite reported (`SQLEngine`): `code` is the nearest of
    /// Storage's codes, and `engineCode` the engine's own (PostgreSQL's SQLSTATE, `"23505"`).
    public init(code: Code, engineCode: String?, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.extendedCode = code.rawValue
        self.message = message
        self.sql = sql
        self.path = path
        self.engineCode = engineCode
    }

    /// The engine's own code for an error an engine other than SQLite reported, else nil.
    public let engineCode: String?

    /// The extended code's name when it has one (`SQLITE_CONSTRAINT_UNIQUE`), else the primary's.
    public var codeName: String {
        if let engineCode {
            let name = code.name.hasPrefix("SQLITE_") ? String(code.name.dropFirst(7)) : code.name
            return "\(engineCode) (\(name))"
        }
        return Code.extendedNames[extendedCode] ?? code.name
    }

    /// How to fix the most common failures, or `nil`.
    public var hint: String? { code.hint }

    /// A multi-line account: code and message, then the SQL, the database file and a hint.
    public var description: String {
        var text = engineCode == nil ? "\(codeName) (\(extendedCode)): \(message)" : "\(codeName): \(message)"
        if let sql { text += "\n  SQL: \(sql.count > 300 ? String(sql.prefix(300)) + "…" : sql)" }
        if let path { text += "\n  database: \(path)" }
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}

extension StorageError {
    /// The error SQLite reports for its last call on `handle`.
    static func sqlite(_ result: Int32, handle: OpaquePointer?, sql: String?, path: String?) -> StorageError {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? result
        // The handle's message belongs to the last failing call; prefer the generic text when
        // the handle does not report the same failure.
        let message: String
        if let handle, extended & 0xFF == result & 0xFF, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(result) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        let useExtended = extended & 0xFF == result & 0xFF ? extended : result
        return StorageError(
            code: Code(rawValue: result & 0xFF), extendedCode: useExtended, message: message, sql: sql,
            path: path)
    }

    /// The database was used after `close()`.
    static func closed(path: String) -> StorageError {
        StorageError(
            code: .misuse,
            message: "the database is closed; open a new Database for '\(path)' instead of using this one",
            path: path)
    }
}
