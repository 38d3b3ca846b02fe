import CSQLite
import Foundation

/// One `?` parameter of a statement being bound, lent to `SQLBindable.bind(to:)`.
///
/// Binding copies text and bytes into SQLite at once, so the value need not outlive the call.
public struct SQLParameter: ~Copyable {
    // Only the raw statement handle, so lending a parameter costs no reference counting; an
    // error finds its SQL and database file through the handle.
    @usableFromInline let statement: OpaquePointer
    /// The parameter's 1-based index.
    public let index: Int32

    @inlinable
    init(statement: OpaquePointer, index: Int32) {
        self.statement = statement
        self.index = index
    }

    /// Tells SQLite to copy bound text and blobs before the bind call returns.
    @usableFromInline
    static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// Binds `NULL`.
    @inlinable
    public func bindNull() throws(StorageError) {
        try check(sqlite3_bind_null(statement, index))
    }

    /// Binds an integer.
    @inlinable
    public func bind(_ value: Int64) throws(StorageError) {
        try check(sqlite3_bind_int64(statement, index, value))
    }

    /// Binds a real.
    @inlinable
    public func bind(_ value: Double) throws(StorageError) {
        try check(sqlite3_bind_double(statement, index, value))
    }

    /// Binds text.
    @inlinable
    public func bind(_ text: String) throws(StorageError) {
        var text = text
        let result = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    return sqlite3_bind_text(statement, index, base, Int32(chars.count), Self.transient)
                }
                // An empty buffer may have no address; "" still binds empty text, not NULL.
                return sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
        }
        try check(result)
    }

    /// Binds bytes as a blob (an empty buffer binds an empty blob, not `NULL`).
    @inlinable
    public func bind(bytes: UnsafeRawBufferPointer) throws(StorageError) {
        try check(bindResult(bytes: bytes))
    }

    /// Binds bytes and returns SQLite's result code.
    @inlinable
    func bindResult(bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_zeroblob(statement, index, 0)
        }
        return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), Self.transient)
    }

    /// Binds the bytes of a contiguous collection (`[UInt8]`, `Data`) as a blob.
    @inlinable
    public func bind<Bytes: ContiguousBytes>(contentsOf bytes: Bytes) throws(StorageError) {
        let result = bytes.withUnsafeBytes { buffer in bindResult(bytes: buffer) }
        try check(result)
    }

    /// Binds a value of any storage class.
    @inlinable
    public func bind(_ value: SQLValue) throws(StorageError) {
        switch value {
        case .null: try bindNull()
        case .integer(let number): try bind(number)
        case .real(let number): try bind(number)
        case .text(let text): try bind(text)
        case .blob(let data): try bind(contentsOf: data)
        }
    }

    @inlinable
    func check(_ result: Int32) throws(StorageError) {
        if result != SQLITE_OK { throw failure(result) }
    }

    @usableFromInline
    func failure(_ result: Int32) -> StorageError {
        let database = sqlite3_db_handle(statement)
        let sql = sqlite3_sql(statement).map { String(cString: $0) }
        var path = database.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) } ?? ""
        if path.isEmpty { path = ":memory:" }
        return StorageError.sqlite(result, handle: database, sql: sql, path: path)
    }
}
