import Foundation

/// A value SQLite stores: one of its five storage classes.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    /// `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// The storage class's name, for messages (`"an integer"`).
    public var typeDescription: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }

    /// The value as SQL would show it: `NULL`, `42`, `1.5`, `'text'` (cut at 40 characters),
    /// or a blob's size.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let text):
            "'\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .blob(let data): "<\(data.count) bytes>"
        }
    }

    /// The value with its storage class, for messages: `NULL`, `an integer (42)`, `text ('abc')`.
    var quoted: String {
        self == .null ? "NULL" : "\(typeDescription) (\(description))"
    }
}
