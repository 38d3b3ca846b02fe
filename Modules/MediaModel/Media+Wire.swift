import Foundation

extension Media: WirePayload, Codable {
    /// The envelope key of a single media: `{"version": 1, "media": {...}}`.
    public static let envelopeKey = "media"

    /// Decodes a media.
    ///
    /// Required: `id`, `author`, `createdAt` (milliseconds since 1970). Optional: `text`
    /// (default empty), `attachments` (default none), `kind` (derived from the attachments when
    /// absent or known), `clientToken`. A `kind` this build does not know keeps the whole object
    /// raw in `unknownKind`, with the common fields decoded and no attachments.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let id = MediaID(try object.string("id"))
        let author = try object.decode(User.self, "author")
        let createdAt = Date(milliseconds: try object.int64("createdAt"))
        let text = try object.optionalString("text") ?? ""
        let clientToken = try object.optionalString("clientToken")
        if let kindName = try object.optionalString("kind"), !MediaKind(name: kindName).isKnown {
            self.init(
                id: id, author: author, createdAt: createdAt, text: text, attachments: [],
                unknownKind: UnknownPayload(typeName: kindName, raw: json), clientToken: clientToken)
        } else {
            self.init(
                id: id, author: author, createdAt: createdAt, text: text,
                attachments: try object.decodeArray(Attachment.self, "attachments"), unknownKind: nil,
                clientToken: clientToken)
        }
    }

    /// The wire form; `kind` is written when known. A media of an unknown kind encodes exactly
    /// as it arrived (its fields are read-only, so they cannot have drifted from the payload).
    public var json: JSONValue {
        if let unknownKind { return unknownKind.raw }
        var fields: [String: JSONValue] = [
            "id": .string(id.rawValue), "author": author.json, "createdAt": .int(createdAt.milliseconds),
            "text": .string(text), "attachments": .array(attachments.map(\.json)),
        ]
        if kind.isKnown { fields["kind"] = .string(kind.name) }
        if let clientToken { fields["clientToken"] = .string(clientToken) }
        return .object(fields)
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension Date {
    /// A date from milliseconds since 1970.
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since 1970, rounded to the nearest.
    var milliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
