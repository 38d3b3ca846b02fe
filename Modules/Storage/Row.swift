import Foundation

/// A materialized result row: column names and values, usable after the query ended.
///
/// Typed reads follow the rules of `ColumnReading` (the same as a `RowCursor`'s) and throw
/// `mismatch` or `range` errors naming the column and the value found.
public struct Row: ColumnReading, Hashable, Sendable {
    /// The result column names, in order.
    public let columns: [String]
    /// The values, in column order.
    public let values: [SQLValue]

    /// Makes a row; `columns` and `values` should have the same count.
    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value of a column, whatever its storage class.
    public func value(_ index: Int) throws(StorageError) -> SQLValue {
        guard values.indices.contains(index) else {
            throw StorageError(
                code: .range,
                message: "column index \(index) is out of range; the row has \(values.count) column(s)")
        }
        return values[index]
    }

    /// Whether a column holds NULL.
    public func isNull(_ index: Int) throws(StorageError) -> Bool { try value(index) == .null }

    /// A column as an `Int64` (INTEGER).
    public func int64(_ index: Int) throws(StorageError) -> Int64 {
        guard case .integer(let number) = try value(index) else {
            throw mismatch(index, expected: "an integer")
        }
        return number
    }

    /// A column as a `Double` (REAL or INTEGER).
    public func double(_ index: Int) throws(StorageError) -> Double {
        switch try value(index) {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: throw mismatch(index, expected: "a real")
        }
    }

    /// A column as a `String` (TEXT).
    public func string(_ index: Int) throws(StorageError) -> String {
        guard case .text(let text) = try value(index) else { throw mismatch(index, expected: "text") }
        return text
    }

    /// A column as `Data` (BLOB or TEXT).
    public func data(_ index: Int) throws(StorageError) -> Data {
        switch try value(index) {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: throw mismatch(index, expected: "a blob")
        }
    }

    /// The index of the named column (exact match first, then ignoring case).
    public func index(of name: String) throws(StorageError) -> Int {
        if let index = columns.firstIndex(of: name) { return index }
        if let index = columns.firstIndex(where: { $0.lowercased() == name.lowercased() }) { return index }
        throw StorageError(
            code: .range,
            message:
                "the row has no column named \"\(name)\"; its columns are: \(columns.joined(separator: ", "))"
        )
    }

    private func mismatch(_ index: Int, expected: String) -> StorageError {
        let name = columns.indices.contains(index) ? columns[index] : "?"
        let found = values.indices.contains(index) ? values[index].quoted : "nothing"
        return StorageError(
            code: .mismatch, message: "column \(index) (\"\(name)\") holds \(found), expected \(expected)")
    }
}
