import CSQLite
import Foundation

/// One prepared statement: the SQLite handle plus what the wrapper caches about it.
///
/// Used only while the owning `Database`'s lock is held (see `ConnectionCore`). The hot paths
/// (bind, step, run, map) are `@inlinable` so a caller's row type and bindings are specialized
/// in the caller, keeping the wrapper's per-row cost close to raw sqlite3 calls.
@usableFromInline
final class StatementCore {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let sql: String
    @usableFromInline let parameterCount: Int
    /// Whether a `Statement` or a running call is using the handle now.
    var inUse = false
    /// The connection's use clock when the statement was last handed out (for LRU eviction).
    var lastUse: UInt64 = 0
    private var columnIndexes: [String: Int32]?

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds one value per parameter, in order.
    @inlinable
    func bind(_ values: [(any SQLBindable)?], core: ConnectionCore) throws(StorageError) {
        guard values.count == parameterCount else { throw parameterCountMismatch(values.count, core: core) }
        var index: Int32 = 1
        for value in values {
            let parameter = SQLParameter(statement: handle, index: index)
            if let value { try value.bind(to: parameter) } else { try parameter.bindNull() }
            index += 1
        }
    }

    /// Binds a parameter pack, one value per parameter, in order: statically dispatched, with
    /// no array and no existential boxes (the hot path of batch inserts).
    @inlinable
    func bind<each Value: SQLBindable>(_ values: repeat each Value, core: ConnectionCore) throws(StorageError)
    {
        var count = 0
        repeat count += Self.one((each Value).self)
        guard count == parameterCount else { throw parameterCountMismatch(count, core: core) }
        var index: Int32 = 0
        repeat try (each values).bind(to: SQLParameter(statement: handle, index: Self.advance(&index)))
    }

    @inlinable @inline(__always)
    static func one<Value>(_ type: Value.Type) -> Int { 1 }

    @inlinable @inline(__always)
    static func advance(_ index: inout Int32) -> Int32 {
        index += 1
        return index
    }

    @usableFromInline
    func parameterCountMismatch(_ count: Int, core: ConnectionCore) -> StorageError {
        StorageError(
            code: .range,
            message: "the statement has \(parameterCount) parameter(s) but \(count) value(s) were bound",
            sql: sql, path: core.path)
    }

    /// Runs the statement to completion, skipping any rows, then resets it.
    ///
    /// - Returns: The rows changed (`sqlite3_changes`), meaningful for INSERT, UPDATE, DELETE.
    @inlinable
    func run(core: ConnectionCore) throws(StorageError) -> Int {
        while true {
            let result = sqlite3_step(handle)
            if result == SQLITE_DONE { break }
            if result != SQLITE_ROW { throw failure(result, core: core) }
        }
        sqlite3_reset(handle)
        return Int(sqlite3_changes(core.handle))
    }

    /// Binds values with `body`, checks their count, and runs the statement.
    @inlinable
    func run(binding body: (inout SQLBinder) throws -> Void, core: ConnectionCore) throws -> Int {
        var binder = SQLBinder(statement: handle)
        try body(&binder)
        guard binder.count == parameterCount else { throw parameterCountMismatch(binder.count, core: core) }
        return try run(core: core)
    }

    /// Steps to the next row: `true` on a row, `false` when done (after resetting).
    @inlinable
    func step(core: ConnectionCore) throws(StorageError) -> Bool {
        let result = sqlite3_step(handle)
        if result == SQLITE_ROW { return true }
        if result == SQLITE_DONE {
            sqlite3_reset(handle)
            return false
        }
        throw failure(result, core: core)
    }

    /// Steps through every row, mapping each; the statement is reset when done.
    @inlinable
    func map<T>(core: ConnectionCore, _ transform: (borrowing RowCursor) throws -> T) throws -> [T] {
        var results: [T] = []
        let cursor = RowCursor(statement: self, core: core)
        while try step(core: core) { results.append(try transform(cursor)) }
        return results
    }

    /// Builds the error for a failed step and resets the statement.
    @usableFromInline
    func failure(_ result: Int32, core: ConnectionCore) -> StorageError {
        let error = StorageError.sqlite(result, handle: core.handle, sql: sql, path: core.path)
        sqlite3_reset(handle)
        return error
    }

    /// Resets the statement so it can run again and holds no read lock.
    @usableFromInline
    func reset() {
        sqlite3_reset(handle)
        columnIndexes = nil
    }

    /// Resets the statement unless it already ran to completion (and so reset itself).
    @usableFromInline
    func resetIfNeeded() {
        if sqlite3_stmt_busy(handle) != 0 { sqlite3_reset(handle) }
        if columnIndexes != nil { columnIndexes = nil }
    }

    /// The index of the result column called `name` (case-sensitive first, then not).
    @usableFromInline
    func columnIndex(named name: String, path: String) throws(StorageError) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for column in 0..<sqlite3_column_count(handle) {
                if let text = sqlite3_column_name(handle, column) {
                    let columnName = String(cString: text)
                    if indexes[columnName] == nil { indexes[columnName] = column }
                }
            }
            columnIndexes = indexes
        }
        if let index = columnIndexes?[name] { return index }
        if let match = columnIndexes?.first(where: { $0.key.lowercased() == name.lowercased() }) {
            return match.value
        }
        let names = (columnIndexes ?? [:]).sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")
        throw StorageError(
            code: .range,
            message: "the query has no column named \"\(name)\"; its columns are: \(names)",
            sql: sql, path: path)
    }
}

extension StatementCore {
    /// Steps through every row, materializing each; the statement is reset when done.
    func rows(core: ConnectionCore) throws(StorageError) -> [Row] {
        var rows: [Row] = []
        let cursor = RowCursor(statement: self, core: core)
        var columns: [String]?
        while try step(core: core) {
            let names = columns ?? cursor.columnNames
            columns = names
            rows.append(Row(columns: names, values: cursor.values))
        }
        return rows
    }

    /// The value of a column of the current row.
    @usableFromInline
    func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(at: column))
        case SQLITE_BLOB: return .blob(data(at: column))
        default: return .null
        }
    }

    /// The text of a column of the current row (empty for NULL).
    @inlinable
    func text(at column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The bytes of a column of the current row (empty for NULL or an empty blob).
    @inlinable
    func bytes(at column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The bytes of a column of the current row as `Data`.
    @inlinable
    func data(at column: Int32) -> Data {
        guard let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The name of a result column.
    @usableFromInline
    func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "column \(column)"
    }
}
