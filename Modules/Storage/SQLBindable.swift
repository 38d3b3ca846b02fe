import Foundation

/// A Swift value that can be bound to a `?` parameter of a statement.
///
/// Conforming: `Int`, `Int64`, `Int32`, `Double`, `Bool` (as 0 or 1), `String`, `Data`,
/// `[UInt8]` (as a blob), `SQLValue`, and `Optional` of any of these (`nil` binds `NULL`).
/// A bare `nil` binds `NULL` too. A type of yours conforms by giving its `sqlValue`.
public protocol SQLBindable {
    /// The value as SQLite stores it.
    var sqlValue: SQLValue { get }

    /// Binds the value to `parameter`. The default binds `sqlValue`; the built-in types bind
    /// directly, without building an `SQLValue`.
    func bind(to parameter: borrowing SQLParameter) throws(StorageError)
}

extension SQLBindable {
    /// Binds `sqlValue`.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(sqlValue)
    }
}

extension Int: SQLBindable {
    /// An integer.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Binds an integer.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(Int64(self))
    }
}

extension Int64: SQLBindable {
    /// An integer.
    public var sqlValue: SQLValue { .integer(self) }
    /// Binds an integer.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) { try parameter.bind(self) }
}

extension Int32: SQLBindable {
    /// An integer.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Binds an integer.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(Int64(self))
    }
}

extension Double: SQLBindable {
    /// A real.
    public var sqlValue: SQLValue { .real(self) }
    /// Binds a real.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) { try parameter.bind(self) }
}

extension Bool: SQLBindable {
    /// 1 for true, 0 for false.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Binds 1 or 0.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(Int64(self ? 1 : 0))
    }
}

extension String: SQLBindable {
    /// Text.
    public var sqlValue: SQLValue { .text(self) }
    /// Binds text.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) { try parameter.bind(self) }
}

extension Data: SQLBindable {
    /// A blob.
    public var sqlValue: SQLValue { .blob(self) }
    /// Binds a blob.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(contentsOf: self)
    }
}

extension Array: SQLBindable where Element == UInt8 {
    /// A blob.
    public var sqlValue: SQLValue { .blob(Data(self)) }
    /// Binds a blob, without copying into `Data` first.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        try parameter.bind(contentsOf: self)
    }
}

extension SQLValue: SQLBindable {
    /// Itself.
    public var sqlValue: SQLValue { self }
    /// Binds the value.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) { try parameter.bind(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The wrapped value, or `NULL`.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// Binds the wrapped value, or `NULL`.
    @inlinable
    public func bind(to parameter: borrowing SQLParameter) throws(StorageError) {
        if let value = self { try value.bind(to: parameter) } else { try parameter.bindNull() }
    }
}
