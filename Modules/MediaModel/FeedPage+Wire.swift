extension FeedPage: WirePayload, Codable {
    /// The envelope key of a page: `{"version": 1, "page": {...}}`.
    public static let envelopeKey = "page"

    /// Decodes `{"entries": [...], "nextCursor": "c2"}`; `nextCursor` is absent on the last page.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        _ = try object.value("entries")
        self.init(
            entries: try object.decodeArray(FeedEntry.self, "entries"),
            nextCursor: try object.optionalString("nextCursor"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["entries": .array(entries.map(\.json))]
        if let nextCursor { fields["nextCursor"] = .string(nextCursor) }
        return .object(fields)
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
