import MediaModel

/// A page of one conversation's messages (`GET /v1/conversations/{id}/messages`), oldest first,
/// with the conversation and the cursors to page both ways.
public struct MessagePage: WirePayload {
    /// The envelope key: `"messages"`.
    public static let envelopeKey = "messages"

    /// The conversation.
    public var conversation: Conversation
    /// The messages, oldest first (the server's order).
    public var messages: [Message]
    /// Pass as `before` for the older messages; nil when there are none.
    public var olderCursor: String?
    /// Pass as `after` for the messages after this page (an empty page when none came yet).
    public var newerCursor: String

    /// Makes a page.
    public init(
        conversation: Conversation, messages: [Message], olderCursor: String? = nil, newerCursor: String
    ) {
        self.conversation = conversation
        self.messages = messages
        self.olderCursor = olderCursor
        self.newerCursor = newerCursor
    }

    /// Decodes `{"conversation": {...}, "items": [...], "olderCursor": "d:3", "newerCursor": "d:9"}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            conversation: try object.decode(Conversation.self, "conversation"),
            messages: try object.decodeArray(Message.self, "items"),
            olderCursor: try object.optionalString("olderCursor"),
            newerCursor: try object.string("newerCursor"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "conversation": conversation.json, "items": .array(messages.map(\.json)),
            "newerCursor": .string(newerCursor),
        ]
        if let olderCursor { fields["olderCursor"] = .string(olderCursor) }
        return .object(fields)
    }
}
