extension MediaFacts: WireCodable, Codable {
    /// Decodes `{"likeCount": 3, "replyCount": 1, "viewerLiked": true, "repostCount": 0,
    /// "viewerReposted": false, "caption": "edited", "revision": 7}`; `likeCount` and
    /// `replyCount` are required, the rest optional.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
        self.init(
            likeCount: try object.int("likeCount", in: counts),
            viewerLiked: try object.optionalBool("viewerLiked") ?? false,
            replyCount: try object.int("replyCount", in: counts),
            repostCount: try object.optionalInt("repostCount", in: counts) ?? 0,
            viewerReposted: try object.optionalBool("viewerReposted") ?? false,
            caption: try object.optionalString("caption"),
            revision: try object.optionalInt64("revision") ?? 0)
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "likeCount": .int(Int64(likeCount)), "viewerLiked": .bool(viewerLiked),
            "replyCount": .int(Int64(replyCount)), "repostCount": .int(Int64(repostCount)),
            "revision": .int(revision),
        ]
        if viewerReposted { fields["viewerReposted"] = .bool(true) }
        if let caption { fields["caption"] = .string(caption) }
        return .object(fields)
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
