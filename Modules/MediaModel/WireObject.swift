/// Reads the fields of a JSON object, reporting problems with their field path.
///
/// Missing and `null` fields count as absent. Fields this build does not read are ignored.
package struct WireObject {
    /// The object's fields.
    package let fields: [String: JSONValue]
    /// Where the object sits in the document.
    package let path: WirePath

    /// Reads `value` as an object found at `path`.
    package init(_ value: JSONValue, at path: WirePath) throws(WireFormatError) {
        guard case .object(let fields) = value else {
            throw WireFormatError(path: path, problem: "expected an object, found \(value.briefDescription)")
        }
        self.fields = fields
        self.path = path
    }

    /// The value of a required field.
    package func value(_ key: String) throws(WireFormatError) -> JSONValue {
        guard let value = optionalValue(key) else {
            throw WireFormatError(path: path.appending(key), problem: "required field is missing")
        }
        return value
    }

    /// The value of an optional field; `nil` when absent or `null`.
    package func optionalValue(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    /// A required string field.
    package func string(_ key: String) throws(WireFormatError) -> String {
        try value(key).string(at: path.appending(key))
    }

    /// An optional string field.
    package func optionalString(_ key: String) throws(WireFormatError) -> String? {
        guard let value = optionalValue(key) else { return nil }
        return try value.string(at: path.appending(key))
    }

    /// A required integer field, checked against `range` when given.
    package func int(_ key: String, in range: ClosedRange<Int64>? = nil) throws(WireFormatError) -> Int {
        Int(try value(key).integer(at: path.appending(key), in: range))
    }

    /// An optional integer field, checked against `range` when given.
    package func optionalInt(_ key: String, in range: ClosedRange<Int64>? = nil) throws(WireFormatError)
        -> Int?
    {
        guard let value = optionalValue(key) else { return nil }
        return Int(try value.integer(at: path.appending(key), in: range))
    }

    /// A required 64-bit integer field.
    package func int64(_ key: String, in range: ClosedRange<Int64>? = nil) throws(WireFormatError) -> Int64 {
        try value(key).integer(at: path.appending(key), in: range)
    }

    /// An optional 64-bit integer field.
    package func optionalInt64(_ key: String, in range: ClosedRange<Int64>? = nil) throws(WireFormatError)
        -> Int64?
    {
        guard let value = optionalValue(key) else { return nil }
        return try value.integer(at: path.appending(key), in: range)
    }

    /// An optional boolean field.
    package func optionalBool(_ key: String) throws(WireFormatError) -> Bool? {
        guard let value = optionalValue(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw WireFormatError(
                path: path.appending(key), problem: "expected a boolean, found \(value.briefDescription)")
        }
        return flag
    }

    /// A required field decoded as `T`.
    package func decode<T: WireCodable>(_ type: T.Type, _ key: String) throws(WireFormatError) -> T {
        try T(json: value(key), at: path.appending(key))
    }

    /// An optional field decoded as `T`.
    package func decodeOptional<T: WireCodable>(_ type: T.Type, _ key: String) throws(WireFormatError) -> T? {
        guard let value = optionalValue(key) else { return nil }
        return try T(json: value, at: path.appending(key))
    }

    /// An array field decoded element by element as `T`; absent means empty.
    package func decodeArray<T: WireCodable>(_ type: T.Type, _ key: String) throws(WireFormatError) -> [T] {
        guard let value = optionalValue(key) else { return [] }
        let arrayPath = path.appending(key)
        guard case .array(let elements) = value else {
            throw WireFormatError(
                path: arrayPath, problem: "expected an array, found \(value.briefDescription)")
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try T(json: element, at: arrayPath.appending(index: index)))
        }
        return result
    }

    /// An object field whose keys are media ids, each value decoded as `T`; absent means empty.
    package func decodeMap<T: WireCodable>(_ type: T.Type, _ key: String) throws(WireFormatError)
        -> [MediaID: T]
    {
        guard let value = optionalValue(key) else { return [:] }
        let mapPath = path.appending(key)
        let object = try WireObject(value, at: mapPath)
        var result: [MediaID: T] = [:]
        result.reserveCapacity(object.fields.count)
        for (id, element) in object.fields {
            result[MediaID(id)] = try T(json: element, at: mapPath.appending(id))
        }
        return result
    }
}

extension JSONValue {
    /// The value as a string, or an error at `path`.
    package func string(at path: WirePath) throws(WireFormatError) -> String {
        guard case .string(let text) = self else {
            throw WireFormatError(path: path, problem: "expected a string, found \(briefDescription)")
        }
        return text
    }

    /// The value as an integer (a double without a fraction counts), checked against `range`.
    package func integer(at path: WirePath, in range: ClosedRange<Int64>? = nil) throws(WireFormatError)
        -> Int64
    {
        let number: Int64
        switch self {
        case .int(let value):
            number = value
        case .double(let value):
            guard value == value.rounded(), let exact = Int64(exactly: value) else {
                throw WireFormatError(path: path, problem: "expected an integer, found \(briefDescription)")
            }
            number = exact
        default:
            throw WireFormatError(path: path, problem: "expected a number, found \(briefDescription)")
        }
        if let range, !range.contains(number) {
            throw WireFormatError(
                path: path,
                problem: "expected a value from \(range.lowerBound) to \(range.upperBound), found \(number)")
        }
        return number
    }

    /// A short account of the value for messages: strings quoted (and cut at 40 characters),
    /// numbers and literals as written, arrays and objects by kind.
    package var briefDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            var escaped = ""
            for character in shown {
                switch character {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                default: escaped.append(character)
                }
            }
            return "\"\(escaped)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
