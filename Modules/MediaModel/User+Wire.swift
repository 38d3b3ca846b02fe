extension User: WireCodable, Codable {
    /// Decodes `{"id": "u1", "handle": "ada", "displayName": "Ada", "avatar": {...}, "bio": "..."}`;
    /// `avatar` and `bio` are optional.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            id: UserID(try object.string("id")),
            handle: try object.string("handle"),
            displayName: try object.string("displayName"),
            avatar: try object.decodeOptional(Avatar.self, "avatar"),
            bio: try object.optionalString("bio") ?? "")
    }

    /// The wire form.
    public var json: JSONValue {
        [
            "id": .string(id.rawValue), "handle": .string(handle), "displayName": .string(displayName),
            "avatar": avatar.json, "bio": .string(bio),
        ]
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension User.Avatar: WireCodable {
    /// Decodes `{"type": "glyph", "glyph": "A"}` or `{"type": "image", "pixels": {...}}`;
    /// another type keeps its raw payload.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let type = try object.string("type")
        switch type {
        case "glyph": self = .glyph(try object.string("glyph"))
        case "image": self = .image(try object.decode(PixelImage.self, "pixels"))
        default: self = .unknown(UnknownPayload(typeName: type, raw: json))
        }
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .glyph(let glyph): ["type": "glyph", "glyph": .string(glyph)]
        case .image(let image): ["type": "image", "pixels": image.json]
        case .unknown(let payload): payload.raw
        }
    }
}
