/// A JSON value that remembers where it was written, so every diagnostic about a manifest can
/// point at the exact line and column.
struct JSONNode: Sendable {
    /// One member of an object: its key, where the key was written, and its value.
    struct Member: Sendable {
        var key: String
        var keyLocation: SourceLocation
        var value: JSONNode
    }

    enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    var value: Value
    /// Where the value starts (its first character).
    var location: SourceLocation

    /// The JSON type name used in messages (`"a string"`, `"an object"`).
    var typeDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The value as written, abbreviated, for quoting in messages (`"abc"`, `12`, `{...}`).
    var quoted: String {
        switch value {
        case .object: "{...}"
        case .array: "[...]"
        case .string(let s): "\"\(s.count > 40 ? String(s.prefix(40)) + "..." : s)\""
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        }
    }
}
