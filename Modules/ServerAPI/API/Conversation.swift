import Foundation
import MediaModel

/// A conversation as the viewer sees it (`POST /v1/conversations` and the conversations list):
/// its members, its last message, and how far the viewer has read.
public struct Conversation: WirePayload, Identifiable {
    /// The envelope key: `"conversation"`.
    public static let envelopeKey = "conversation"

    /// The conversation's id (`c1`).
    public var id: ConversationID
    /// Its members, the viewer included, in id order.
    public var members: [User]
    /// Its newest message, if any.
    public var lastMessage: Message?
    /// The newest message the viewer has read, if any.
    public var readUpTo: MessageID?
    /// The newest message every other member has read, if any: the viewer's messages up to it
    /// are "seen".
    public var seenUpTo: MessageID?
    /// The other members' messages after the viewer's read position.
    public var unreadCount: Int
    /// When it was started.
    public var createdAt: Date
    /// When its last message was sent (when it was started, without one): what the list is
    /// ordered by, newest first.
    public var updatedAt: Date

    /// Makes a conversation.
    public init(
        id: ConversationID, members: [User], lastMessage: Message? = nil, readUpTo: MessageID? = nil,
        seenUpTo: MessageID? = nil, unreadCount: Int = 0, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.members = members
        self.lastMessage = lastMessage
        self.readUpTo = readUpTo
        self.seenUpTo = seenUpTo
        self.unreadCount = unreadCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The members other than `viewer`, in id order: whom a screen names the conversation after.
    public func others(than viewer: UserID) -> [User] { members.filter { $0.id != viewer } }

    /// Decodes a conversation; `lastMessage`, `readUpTo` and `seenUpTo` may be absent.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            id: ConversationID(try object.string("id")),
            members: try object.decodeArray(User.self, "members"),
            lastMessage: try object.decodeOptional(Message.self, "lastMessage"),
            readUpTo: try object.optionalString("readUpTo").map { MessageID($0) },
            seenUpTo: try object.optionalString("seenUpTo").map { MessageID($0) },
            unreadCount: try object.int("unreadCount", in: 0...Int64(Int32.max)),
            createdAt: Date(wireMilliseconds: try object.int64("createdAt")),
            updatedAt: Date(wireMilliseconds: try object.int64("updatedAt")))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id.rawValue), "members": .array(members.map(\.json)),
            "unreadCount": .int(Int64(unreadCount)), "createdAt": .int(createdAt.wireMilliseconds),
            "updatedAt": .int(updatedAt.wireMilliseconds),
        ]
        if let lastMessage { fields["lastMessage"] = lastMessage.json }
        if let readUpTo { fields["readUpTo"] = .string(readUpTo.rawValue) }
        if let seenUpTo { fields["seenUpTo"] = .string(seenUpTo.rawValue) }
        return .object(fields)
    }
}
