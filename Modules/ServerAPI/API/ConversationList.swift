import MediaModel

/// A page of the viewer's conversations (`GET /v1/conversations`), newest message first.
public struct ConversationList: WirePayload {
    /// The envelope key: `"conversations"`.
    public static let envelopeKey = "conversations"

    /// The conversations.
    public var conversations: [Conversation]
    /// The cursor of the next page, when more follow.
    public var nextCursor: String?

    /// Makes a page.
    public init(conversations: [Conversation], nextCursor: String? = nil) {
        self.conversations = conversations
        self.nextCursor = nextCursor
    }

    /// Decodes `{"items": [...], "nextCursor": "k:..."}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            conversations: try object.decodeArray(Conversation.self, "items"),
            nextCursor: try object.optionalString("nextCursor"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["items": .array(conversations.map(\.json))]
        if let nextCursor { fields["nextCursor"] = .string(nextCursor) }
        return .object(fields)
    }
}
