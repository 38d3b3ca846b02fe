extension MediaFacts: WireCodable, Codable {
    /// Decodes `{"likeCount": 3, "replyCount": 1, "viewerLiked": true, "repostCount": 0,
    /// "viewerReposted": false, "caption": "edited", "revision": 7}`, each of ``fields`` as its
    /// ``Field/onTheWire`` says: `likeCount` and `replyCount` are required, the rest optional.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        var facts = MediaFacts()
        for field in Self.fields { try field.read(object, into: &facts) }
        self = facts
    }

    /// The wire form: every fact that is always written, and the others when not their default.
    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(Self.fields.count)
        for field in Self.fields where field.isWritten(for: self) {
            object[field.name] = field.json(of: self)
        }
        return .object(object)
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
