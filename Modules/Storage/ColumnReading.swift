import Foundation

/// Typed reads of a result row's columns, by zero-based index or by name, with one set of rules
/// for a running query's `RowCursor` and a copied `Row`: reading NULL, or a value of another
/// storage class, throws a `mismatch` error naming the column and the value found (an integer may
/// be read as a `double`; text may be read as bytes), and a column that does not exist a `range`
/// error.
///
/// A conformer reads a column's value, its five storage classes and its index by name; the rest
/// (every read by name, and `int`, `bool` and `bytes` by index) is written once, here. A conformer
/// may read those faster itself (`RowCursor` reads an integer straight from SQLite).
///
/// ```swift
/// let id = try row.int64("id")           // the same call on a cursor or a copied row
/// let title = try row.isNull(2) ? nil : try row.string(2)
/// ```
public protocol ColumnReading: ~Copyable {
    /// The column's value, whatever its storage class.
    func value(_ index: Int) throws(StorageError) -> SQLValue
    /// Whether the column holds NULL.
    func isNull(_ index: Int) throws(StorageError) -> Bool
    /// The column as an `Int64` (INTEGER).
    func int64(_ index: Int) throws(StorageError) -> Int64
    /// The column as a `Double` (REAL or INTEGER).
    func double(_ index: Int) throws(StorageError) -> Double
    /// The column as a `String` (TEXT).
    func string(_ index: Int) throws(StorageError) -> String
    /// The column as `Data` (BLOB or TEXT).
    func data(_ index: Int) throws(StorageError) -> Data
    /// The index of the named column (exact match first, then ignoring case).
    func index(of name: String) throws(StorageError) -> Int

    /// The column as an `Int` (INTEGER).
    func int(_ index: Int) throws(StorageError) -> Int
    /// The column as a `Bool` (INTEGER; nonzero is true).
    func bool(_ index: Int) throws(StorageError) -> Bool
    /// The column as bytes (BLOB or TEXT).
    func bytes(_ index: Int) throws(StorageError) -> [UInt8]
}

extension ColumnReading where Self: ~Copyable {
    /// The column as an `Int` (INTEGER).
    @inlinable
    public func int(_ index: Int) throws(StorageError) -> Int { Int(try int64(index)) }
    /// The column as a `Bool` (INTEGER; nonzero is true).
    @inlinable
    public func bool(_ index: Int) throws(StorageError) -> Bool { try int64(index) != 0 }
    /// The column as bytes (BLOB or TEXT).
    @inlinable
    public func bytes(_ index: Int) throws(StorageError) -> [UInt8] { [UInt8](try data(index)) }

    /// Whether the named column holds NULL.
    @inlinable
    public func isNull(_ name: String) throws(StorageError) -> Bool { try isNull(index(of: name)) }
    /// The named column's value, whatever its storage class.
    @inlinable
    public func value(_ name: String) throws(StorageError) -> SQLValue { try value(index(of: name)) }
    /// The named column as an `Int`.
    @inlinable
    public func int(_ name: String) throws(StorageError) -> Int { try int(index(of: name)) }
    /// The named column as an `Int64`.
    @inlinable
    public func int64(_ name: String) throws(StorageError) -> Int64 { try int64(index(of: name)) }
    /// The named column as a `Double`.
    @inlinable
    public func double(_ name: String) throws(StorageError) -> Double { try double(index(of: name)) }
    /// The named column as a `Bool`.
    @inlinable
    public func bool(_ name: String) throws(StorageError) -> Bool { try bool(index(of: name)) }
    /// The named column as a `String`.
    @inlinable
    public func string(_ name: String) throws(StorageError) -> String { try string(index(of: name)) }
    /// The named column as `Data`.
    @inlinable
    public func data(_ name: String) throws(StorageError) -> Data { try data(index(of: name)) }
    /// The named column as bytes.
    @inlinable
    public func bytes(_ name: String) throws(StorageError) -> [UInt8] { try bytes(index(of: name)) }
}
