extension WireCodable {
    /// Decodes through the wire format from a `Decoder`, so errors name the field path (the
    /// `Codable` conformances of wire types call this).
    package init(wireDecoder decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), at: WirePath(codingPath: decoder.codingPath))
    }

    /// Encodes the wire form into an `Encoder`.
    package func encodeWire(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
