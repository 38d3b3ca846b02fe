import Basics

extension MediaFacts {
    /// One fact of ``MediaFacts/fields``: its wire name, its kind, how the JSON wire form treats
    /// it, and where it sits in a ``MediaFacts`` value. Everything that reads or writes facts
    /// (the wire form, the feed cache, the backend, the test oracle) goes through these.
    public struct Field: Sendable, CustomStringConvertible {
        /// How a fact is typed, and so read and written.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// An `Int` from 0 to 2,147,483,647, default 0.
            case count
            /// A `Bool`, default false.
            case flag
            /// A `String?`, default `nil` (absent).
            case text
            /// An `Int64` revision (any value), default 0.
            case revision
        }

        /// How the JSON wire form treats a fact.
        public enum Presence: String, Sendable, Hashable {
            /// Must be in every facts object; always written.
            case required
            /// Optional when read (absent or `null` is the default); always written.
            case alwaysWritten
            /// Optional when read; written only when not the default. New facts use this, so
            /// that older builds and servers read documents with and without them.
            case whenSet
        }

        /// A fact's value, typed by its ``MediaFacts/Field/Kind``.
        public enum Value: Hashable, Sendable, CustomStringConvertible {
            /// A ``MediaFacts/Field/Kind/count``.
            case count(Int)
            /// A ``MediaFacts/Field/Kind/flag``.
            case flag(Bool)
            /// A ``MediaFacts/Field/Kind/text``.
            case text(String?)
            /// A ``MediaFacts/Field/Kind/revision``.
            case revision(Int64)

            /// `3`, `true`, `"edited"`, `nil`.
            public var description: String {
                switch self {
                case .count(let value): String(value)
                case .flag(let value): String(value)
                case .text(let value): value.map { "\"\($0)\"" } ?? "nil"
                case .revision(let value): String(value)
                }
            }
        }

        enum Access: Sendable {
            case count(get: @Sendable (MediaFacts) -> Int, set: @Sendable (inout MediaFacts, Int) -> Void)
            case flag(get: @Sendable (MediaFacts) -> Bool, set: @Sendable (inout MediaFacts, Bool) -> Void)
            case text(
                get: @Sendable (MediaFacts) -> String?, set: @Sendable (inout MediaFacts, String?) -> Void)
            case revision(
                get: @Sendable (MediaFacts) -> Int64, set: @Sendable (inout MediaFacts, Int64) -> Void)
        }

        /// The name on the wire (`"likeCount"`), the property's name.
        public let name: String
        /// How the JSON wire form treats the fact.
        public let onTheWire: Presence
        let access: Access
        /// `name` as a JSON key with its colon (`"likeCount":`), for writing bytes directly.
        let keyBytes: [UInt8]

        private init(_ name: String, _ access: Access, _ onTheWire: Presence) {
            self.name = name
            self.access = access
            self.onTheWire = onTheWire
            var key: [UInt8] = []
            JSONValue.writeString(name, into: &key)
            key.append(UInt8(ascii: ":"))
            keyBytes = key
        }

        /// A count (`Int`, 0 to 2,147,483,647 on the wire).
        public static func count(
            _ name: String, _ get: @escaping @Sendable (MediaFacts) -> Int,
            _ set: @escaping @Sendable (inout MediaFacts, Int) -> Void, onTheWire: Presence = .whenSet
        ) -> Field {
            Field(name, .count(get: get, set: set), onTheWire)
        }

        /// A flag (`Bool`).
        public static func flag(
            _ name: String, _ get: @escaping @Sendable (MediaFacts) -> Bool,
            _ set: @escaping @Sendable (inout MediaFacts, Bool) -> Void, onTheWire: Presence = .whenSet
        ) -> Field {
            Field(name, .flag(get: get, set: set), onTheWire)
        }

        /// An optional text (`String?`).
        public static func text(
            _ name: String, _ get: @escaping @Sendable (MediaFacts) -> String?,
            _ set: @escaping @Sendable (inout MediaFacts, String?) -> Void, onTheWire: Presence = .whenSet
        ) -> Field {
            Field(name, .text(get: get, set: set), onTheWire)
        }

        /// A revision (`Int64`).
        public static func revision(
            _ name: String, _ get: @escaping @Sendable (MediaFacts) -> Int64,
            _ set: @escaping @Sendable (inout MediaFacts, Int64) -> Void, onTheWire: Presence = .whenSet
        ) -> Field {
            Field(name, .revision(get: get, set: set), onTheWire)
        }

        /// The fact's kind.
        public var kind: Kind {
            switch access {
            case .count: .count
            case .flag: .flag
            case .text: .text
            case .revision: .revision
            }
        }

        /// The value a fact has when nothing says otherwise.
        public var defaultValue: Value {
            switch access {
            case .count: .count(0)
            case .flag: .flag(false)
            case .text: .text(nil)
            case .revision: .revision(0)
            }
        }

        /// The fact's value in `facts`.
        public func value(in facts: MediaFacts) -> Value {
            switch access {
            case .count(let get, _): .count(get(facts))
            case .flag(let get, _): .flag(get(facts))
            case .text(let get, _): .text(get(facts))
            case .revision(let get, _): .revision(get(facts))
            }
        }

        /// Sets the fact in `facts` to `value`; a value of another kind changes nothing.
        public func set(_ value: Value, in facts: inout MediaFacts) {
            switch (access, value) {
            case (.count(_, let set), .count(let new)): set(&facts, new)
            case (.flag(_, let set), .flag(let new)): set(&facts, new)
            case (.text(_, let set), .text(let new)): set(&facts, new)
            case (.revision(_, let set), .revision(let new)): set(&facts, new)
            default: break
            }
        }

        /// Whether the fact has its default value in `facts`.
        public func isDefault(in facts: MediaFacts) -> Bool { value(in: facts) == defaultValue }

        /// `likeCount (count, required)`.
        public var description: String { "\(name) (\(kind), \(onTheWire))" }

        // MARK: The JSON wire form

        /// Reads the fact from a facts object into `facts`: the default when absent or `null`,
        /// unless it is required.
        func read(_ object: WireObject, into facts: inout MediaFacts) throws(WireFormatError) {
            if onTheWire == .required { _ = try object.value(name) }
            switch access {
            case .count(_, let set):
                set(&facts, try object.optionalInt(name, in: 0...Int64(Int32.max)) ?? 0)
            case .flag(_, let set): set(&facts, try object.optionalBool(name) ?? false)
            case .text(_, let set): set(&facts, try object.optionalString(name))
            case .revision(_, let set): set(&facts, try object.optionalInt64(name) ?? 0)
            }
        }

        /// Whether the wire form writes the fact for `facts`.
        func isWritten(for facts: MediaFacts) -> Bool { onTheWire != .whenSet || !isDefault(in: facts) }

        /// The fact's JSON value in `facts`.
        func json(of facts: MediaFacts) -> JSONValue {
            switch access {
            case .count(let get, _): .int(Int64(get(facts)))
            case .flag(let get, _): .bool(get(facts))
            case .text(let get, _): get(facts).map { .string($0) } ?? .null
            case .revision(let get, _): .int(get(facts))
            }
        }

        /// Appends the fact's JSON value in `facts`, as `JSONValue.serialized()` writes it.
        func writeJSON(of facts: MediaFacts, into out: inout [UInt8]) {
            switch access {
            case .count(let get, _): JSONValue.writeDigits(Int64(get(facts)), into: &out)
            case .flag(let get, _): out.append(contentsOf: (get(facts) ? "true" : "false").utf8)
            case .text(let get, _):
                if let text = get(facts) {
                    JSONValue.writeString(text, into: &out)
                } else {
                    out.append(contentsOf: "null".utf8)
                }
            case .revision(let get, _): JSONValue.writeDigits(get(facts), into: &out)
            }
        }

        // MARK: The binary form

        /// Writes the fact in the binary form: a varint count, a flag byte, a presence byte and
        /// the text, a zigzag revision.
        func write(_ facts: MediaFacts, to writer: inout ByteWriter) {
            switch access {
            case .count(let get, _): writer.count(get(facts))
            case .flag(let get, _): writer.bool(get(facts))
            case .text(let get, _): writer.optionalString(get(facts))
            case .revision(let get, _): writer.signed(get(facts))
            }
        }

        /// Reads what `write(_:to:)` wrote into `facts`.
        func read(_ reader: inout ByteReader, into facts: inout MediaFacts) throws(ByteDecodingError) {
            switch access {
            case .count(_, let set): set(&facts, try reader.count())
            case .flag(_, let set): set(&facts, try reader.bool())
            case .text(_, let set): set(&facts, try reader.optionalString())
            case .revision(_, let set): set(&facts, try reader.signed())
            }
        }
    }

    /// The facts sorted by wire name: the order `JSONValue.serialized()` writes them in.
    static let fieldsInWireOrder = fields.sorted { $0.name < $1.name }

    /// The facts object as compact JSON appended to `out`, byte for byte what
    /// `json.serialized()` gives, without building a `JSONValue` (the backend writes every
    /// response's facts this way).
    ///
    /// Complexity: O(n) in the bytes written; no allocation beyond `out`'s growth.
    package func writeJSON(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for field in Self.fieldsInWireOrder where field.isWritten(for: self) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: field.keyBytes)
            field.writeJSON(of: self, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes every fact in the binary form, in the order of ``fields`` (the feed cache's form;
    /// it carries no format: the reader must be told `binaryFingerprint` matches).
    package func write(to writer: inout ByteWriter) {
        for field in Self.fields { field.write(self, to: &writer) }
    }

    /// Reads facts `write(to:)` wrote with the same ``fields``.
    package init(reading reader: inout ByteReader) throws(ByteDecodingError) {
        var facts = MediaFacts()
        for field in Self.fields { try field.read(&reader, into: &facts) }
        self = facts
    }

    /// A 64-bit FNV-1a hash of the names and kinds of ``fields``, in order: it changes whenever
    /// a fact is added, removed, renamed, retyped or moved, so a store of the binary form can
    /// tell a form written for another list of facts and drop it instead of misreading it.
    package static let binaryFingerprint = binaryFingerprint(of: fields)

    /// The fingerprint of the binary form `fields` would write.
    package static func binaryFingerprint(of fields: [Field]) -> UInt64 {
        var hash = FNV1a()
        for field in fields {
            hash.combine(field.name.utf8)
            hash.endPart()
            hash.combine(field.kind.rawValue.utf8)
            hash.endPart()
        }
        return hash.value
    }

    /// Facts with every field away from its default, each value distinct (counts from 2 up,
    /// flags true, texts naming their field, revisions negative), for tests that must cover
    /// every fact, including the ones added after they were written.
    package static var everyFieldSet: MediaFacts {
        var facts = MediaFacts()
        for (index, field) in fields.enumerated() {
            switch field.kind {
            case .count: field.set(.count(index + 2), in: &facts)
            case .flag: field.set(.flag(true), in: &facts)
            case .text: field.set(.text("\(field.name) \"set\"\n"), in: &facts)
            case .revision: field.set(.revision(-Int64(index) - 3), in: &facts)
            }
        }
        return facts
    }
}
