import MediaModel

/// The viewer's read position in a conversation after `PUT /v1/conversations/{id}/read`.
public struct ReadPosition: WirePayload {
    /// The envelope key: `"read"`.
    public static let envelopeKey = "read"

    /// The conversation.
    public var conversationID: ConversationID
    /// The newest message the viewer has read (it never moves back).
    public var readUpTo: MessageID
    /// The other members' messages after it.
    public var unreadCount: Int

    /// Makes a read position.
    public init(conversationID: ConversationID, readUpTo: MessageID, unreadCount: Int) {
        self.conversationID = conversationID
        self.readUpTo = readUpTo
        self.unreadCount = unreadCount
    }

    /// Decodes `{"conversationID": "c1", "readUpTo": "dm9", "unreadCount": 0}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            conversationID: ConversationID(try object.string("conversationID")),
            readUpTo: MessageID(try object.string("readUpTo")),
            unreadCount: try object.int("unreadCount", in: 0...Int64(Int32.max)))
    }

    /// The wire form.
    public var json: JSONValue {
        [
            "conversationID": .string(conversationID.rawValue), "readUpTo": .string(readUpTo.rawValue),
            "unreadCount": .int(Int64(unreadCount)),
        ]
    }
}
