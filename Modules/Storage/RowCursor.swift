import CSQLite
import Foundation

/// The current row of a running query, lent to the `map` closure of `query`.
///
/// Read columns by zero-based index (fastest) or by name (`ColumnReading`). Typed reads are strict: reading
/// NULL, or a value of another storage class, throws a `mismatch` error naming the column and
/// the value found (an integer may be read as a `double`; text may be read as bytes). Check
/// `isNull(_:)` first for a nullable column. `~Copyable`: a cursor cannot outlive its row.
public struct RowCursor: ColumnReading, ~Copyable {
    /// SQLite's running statement, or nil for an engine's row.
    @usableFromInline let sqlite: StatementCore?
    /// The database file, for messages.
    @usableFromInline let path: String
    /// An engine's row (`SQLEngine`), or nil for SQLite's.
    @usableFromInline let engineRow: Row?
    /// The number of result columns.
    public let count: Int

    @inlinable
    init(statement: StatementCore, core: ConnectionCore) {
        self.sqlite = statement
        self.path = core.path
        self.engineRow = nil
        self.count = Int(sqlite3_column_count(statement.handle))
    }

    @usableFromInline
    init(row: Row) {
        sqlite = nil
        path = ""
        engineRow = row
        count = row.count
    }

    /// SQLite's statement; only called after `engineRow` was found nil.
    @usableFromInline var statement: StatementCore { sqlite! }

    /// The names of the result columns, in order.
    public var columnNames: [String] { engineRow?.columns ?? (0..<Int32(count)).map(statement.columnName) }

    /// Every column of the row, in order.
    public var values: [SQLValue] { engineRow?.values ?? (0..<Int32(count)).map(statement.value(at:)) }

    /// Copies the row into a `Row` value that may outlive the query.
    public func row() -> Row { engineRow ?? Row(columns: columnNames, values: values) }

    /// Whether the column holds NULL.
    @inlinable
    public func isNull(_ index: Int) throws(StorageError) -> Bool {
        if let engineRow { return try engineRow.isNull(index) }
        return try sqlite3_column_type(statement.handle, column(index)) == SQLITE_NULL
    }

    /// The column's value, whatever its storage class.
    public func value(_ index: Int) throws(StorageError) -> SQLValue {
        if let engineRow { return try engineRow.value(index) }
        return statement.value(at: try column(index))
    }

    /// The column as an `Int` (an INTEGER column).
    @inlinable
    public func int(_ index: Int) throws(StorageError) -> Int {
        if let engineRow { return try engineRow.int(index) }
        return Int(sqlite3_column_int64(statement.handle, try column(index, holding: SQLITE_INTEGER)))
    }

    /// The column as an `Int64` (an INTEGER column).
    @inlinable
    public func int64(_ index: Int) throws(StorageError) -> Int64 {
        if let engineRow { return try engineRow.int64(index) }
        return sqlite3_column_int64(statement.handle, try column(index, holding: SQLITE_INTEGER))
    }

    /// The column as a `Double` (a REAL or INTEGER column).
    @inlinable
    public func double(_ index: Int) throws(StorageError) -> Double {
        if let engineRow { return try engineRow.double(index) }
        let column = try column(index)
        let type = sqlite3_column_type(statement.handle, column)
        guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else {
            throw mismatch(column, expected: "a real")
        }
        return sqlite3_column_double(statement.handle, column)
    }

    /// The column as a `Bool` (an INTEGER column; nonzero is true).
    @inlinable
    public func bool(_ index: Int) throws(StorageError) -> Bool {
        if let engineRow { return try engineRow.bool(index) }
        return sqlite3_column_int64(statement.handle, try column(index, holding: SQLITE_INTEGER)) != 0
    }

    /// The column as a `String` (a TEXT column).
    @inlinable
    public func string(_ index: Int) throws(StorageError) -> String {
        if let engineRow { return try engineRow.string(index) }
        return statement.text(at: try column(index, holding: SQLITE_TEXT))
    }

    /// The column as `Data` (a BLOB or TEXT column).
    @inlinable
    public func data(_ index: Int) throws(StorageError) -> Data {
        if let engineRow { return try engineRow.data(index) }
        return statement.data(at: try bytesColumn(index))
    }

    /// The column as bytes (a BLOB or TEXT column).
    @inlinable
    public func bytes(_ index: Int) throws(StorageError) -> [UInt8] {
        if let engineRow { return try engineRow.bytes(index) }
        return statement.bytes(at: try bytesColumn(index))
    }

    /// Lends the bytes of a BLOB or TEXT column to `body` where SQLite holds them, without
    /// copying them (empty for an empty blob): the fast way to splice a stored fragment into
    /// output. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// try row.withUnsafeBytes(1) { json in output.append(contentsOf: json) }
    /// ```
    @inlinable
    public func withUnsafeBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result)
        throws -> Result
    {
        if let engineRow { return try engineRow.data(index).withUnsafeBytes(body) }
        let column = try bytesColumn(index)
        let pointer = sqlite3_column_blob(statement.handle, column)
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count))
    }

    /// The index of the named result column (exact match first, then ignoring case).
    public func index(of name: String) throws(StorageError) -> Int {
        if let engineRow { return try engineRow.index(of: name) }
        return Int(try statement.columnIndex(named: name, path: path))
    }

    @inlinable
    func column(_ index: Int) throws(StorageError) -> Int32 {
        guard index >= 0, index < count else { throw outOfRange(index) }
        return Int32(index)
    }

    @inlinable
    func column(_ index: Int, holding type: Int32) throws(StorageError) -> Int32 {
        let column = try column(index)
        guard sqlite3_column_type(statement.handle, column) == type else {
            throw mismatch(column, expectedType: type)
        }
        return column
    }

    @inlinable
    func bytesColumn(_ index: Int) throws(StorageError) -> Int32 {
        let column = try column(index)
        let type = sqlite3_column_type(statement.handle, column)
        guard type == SQLITE_BLOB || type == SQLITE_TEXT else { throw mismatch(column, expected: "a blob") }
        return column
    }

    @usableFromInline
    func outOfRange(_ index: Int) -> StorageError {
        StorageError(
            code: .range,
            message: "column index \(index) is out of range; the query returns \(count) column(s)",
            sql: statement.sql, path: path)
    }

    @usableFromInline
    func mismatch(_ column: Int32, expected: String) -> StorageError {
        let found = statement.value(at: column)
        return StorageError(
            code: .mismatch,
            message: "column \(column) (\"\(statement.columnName(column))\") holds \(found.quoted), "
                + "expected \(expected)",
            sql: statement.sql, path: path)
    }

    @usableFromInline
    func mismatch(_ column: Int32, expectedType type: Int32) -> StorageError {
        let names: [Int32: String] = [
            SQLITE_INTEGER: "an integer", SQLITE_FLOAT: "a real", SQLITE_TEXT: "text", SQLITE_BLOB: "a blob",
        ]
        return mismatch(column, expected: names[type] ?? "another type")
    }
}
