extension FeedEntry: WirePayload, Codable {
    /// The envelope key of a single entry: `{"version": 1, "entry": {...}}`.
    public static let envelopeKey = "entry"

    /// Decodes `{"id": "e1", "media": {...}, "context": {...}, "seenReplyCount": 2}`;
    /// `context` (default standalone) and `seenReplyCount` are optional.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            id: FeedEntryID(try object.string("id")),
            media: try object.decode(Media.self, "media"),
            context: try object.decodeOptional(Context.self, "context") ?? .standalone,
            seenReplyCount: try object.optionalInt("seenReplyCount", in: 0...Int64(Int32.max)))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id.rawValue), "media": media.json, "context": context.json,
        ]
        if let seenReplyCount { fields["seenReplyCount"] = .int(Int64(seenReplyCount)) }
        return .object(fields)
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension FeedEntry.Context: WireCodable {
    /// Decodes `{"type": "standalone"}`, `{"type": "reply", "parent": {media}}` or
    /// `{"type": "repost", "by": {user}}`; another type keeps its raw payload.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let type = try object.string("type")
        switch type {
        case "standalone": self = .standalone
        case "reply": self = .reply(parent: try object.decode(Media.self, "parent"))
        case "repost": self = .repost(by: try object.decode(User.self, "by"))
        default: self = .unknown(UnknownPayload(typeName: type, raw: json))
        }
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .standalone: ["type": "standalone"]
        case .reply(let parent): ["type": "reply", "parent": parent.json]
        case .repost(let user): ["type": "repost", "by": user.json]
        case .unknown(let payload): payload.raw
        }
    }
}
