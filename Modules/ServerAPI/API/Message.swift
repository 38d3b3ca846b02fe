import Foundation
import MediaModel

/// A direct message as the server sends it: who sent it when, its text and photos, and the post
/// it shares (shown as a card while the post lives).
///
/// ```json
/// {"id": "dm3", "conversationID": "c1", "sender": {user}, "createdAt": 1714564800000,
///  "text": "look", "attachments": [...], "sharedPostID": "m5", "sharedPost": {media},
///  "clientToken": "..."}
/// ```
public struct Message: WirePayload, Identifiable {
    /// The envelope key: `"message"`.
    public static let envelopeKey = "message"

    /// The message's id (`dm3`).
    public var id: MessageID
    /// The conversation it belongs to.
    public var conversationID: ConversationID
    /// Who sent it.
    public var sender: User
    /// When the server stored it.
    public var createdAt: Date
    /// Its text; may be empty when it carries photos or a shared post.
    public var text: String
    /// Its photos.
    public var attachments: [MediaModel.Attachment]
    /// The post it shares, if any, even once that post is deleted.
    public var sharedPostID: MediaID?
    /// The shared post, while it lives (absent too in an event, whose media it is).
    public var sharedPost: Media?
    /// The client token it was sent with; the server tells it only to the sender, whose device
    /// matches its pending message by it.
    public var clientToken: String?

    /// Makes a message.
    public init(
        id: MessageID, conversationID: ConversationID, sender: User, createdAt: Date, text: String,
        attachments: [MediaModel.Attachment] = [], sharedPostID: MediaID? = nil, sharedPost: Media? = nil,
        clientToken: String? = nil
    ) {
        self.id = id
        self.conversationID = conversationID
        self.sender = sender
        self.createdAt = createdAt
        self.text = text
        self.attachments = attachments
        self.sharedPostID = sharedPostID
        self.sharedPost = sharedPost
        self.clientToken = clientToken
    }

    /// Decodes a message; `attachments`, `sharedPostID`, `sharedPost` and `clientToken` may be
    /// absent, and an attachment of a type this build does not know decodes as `unknown`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            id: MessageID(try object.string("id")),
            conversationID: ConversationID(try object.string("conversationID")),
            sender: try object.decode(User.self, "sender"),
            createdAt: Date(wireMilliseconds: try object.int64("createdAt")),
            text: try object.optionalString("text") ?? "",
            attachments: try object.decodeArray(MediaModel.Attachment.self, "attachments"),
            sharedPostID: try object.optionalString("sharedPostID").map { MediaID($0) },
            sharedPost: try object.decodeOptional(Media.self, "sharedPost"),
            clientToken: try object.optionalString("clientToken"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id.rawValue), "conversationID": .string(conversationID.rawValue),
            "sender": sender.json, "createdAt": .int(createdAt.wireMilliseconds), "text": .string(text),
        ]
        if !attachments.isEmpty { fields["attachments"] = .array(attachments.map(\.json)) }
        if let sharedPostID { fields["sharedPostID"] = .string(sharedPostID.rawValue) }
        if let sharedPost { fields["sharedPost"] = sharedPost.json }
        if let clientToken { fields["clientToken"] = .string(clientToken) }
        return .object(fields)
    }
}
