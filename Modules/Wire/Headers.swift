/// HTTP header fields in the order they were added, looked up without regard to case.
///
/// ```swift
/// var headers: Headers = ["Content-Type": "application/json"]
/// headers["authorization"] = "Bearer tok_1f0c"
/// headers["AUTHORIZATION"]   // "Bearer tok_1f0c"
/// ```
///
/// Complexity: lookups are O(n) in the number of fields (requests carry a handful).
public struct Headers: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Hashable, Sendable {
        /// The name as written (`"Content-Type"`).
        public var name: String
        /// The value.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Makes headers from fields, in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Makes headers from a literal; order is kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (any case), or nil. Setting replaces every
    /// field of that name with one (or removes them when nil).
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            let index = fields.firstIndex { Self.same($0.name, name) }
            fields.removeAll { Self.same($0.name, name) }
            guard let newValue else { return }
            fields.insert(
                Field(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
        }
    }

    /// Every value of fields named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field, keeping any of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}

extension StringProtocol where SubSequence == Substring {
    /// The text without HTTP's optional whitespace (`OWS`: spaces and horizontal tabs) at either
    /// end, as header values and the elements of comma-separated header lists are read.
    ///
    /// Foundation's `trimmingCharacters(in: .whitespaces)` trims every Unicode space and loads
    /// character tables the first time it runs; this trims what HTTP allows and touches only
    /// the bytes it removes.
    ///
    /// Complexity: O(k), where k is the number of characters trimmed.
    public func trimmingOptionalWhitespace() -> String {
        let text = self[...]
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let before = bytes.index(before: end)
            guard bytes[before] == 0x20 || bytes[before] == 0x09 else { break }
            end = before
        }
        return String(text[start..<end])
    }
}
