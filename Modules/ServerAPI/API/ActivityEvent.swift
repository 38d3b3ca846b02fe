import Foundation
import MediaModel

/// Something that happened to the viewer: a reply to their post, a like of it, a new
/// follower, a mention, a new message in one of their conversations. A kind this build does not know decodes as `unknown`, never an error.
public struct ActivityEvent: WireCodable, Hashable, Identifiable {
    /// What happened.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// Someone replied to the viewer's post (`media` is the reply).
        case reply
        /// Someone liked the viewer's post (`media` is the post).
        case like
        /// Someone followed the viewer.
        case follow
        /// Someone mentioned the viewer (`media` is the post).
        case mention
        /// Someone sent a message to a conversation of the viewer's (`message` is the message,
        /// `media` the post it shares, if any).
        case message
        /// A kind this build does not know, with its name.
        case unknown(String)

        /// The kind a wire name stands for.
        public init(name: String) {
            switch name {
            case "reply": self = .reply
            case "like": self = .like
            case "follow": self = .follow
            case "mention": self = .mention
            case "message": self = .message
            default: self = .unknown(name)
            }
        }

        /// The wire name.
        public var name: String {
            switch self {
            case .reply: "reply"
            case .like: "like"
            case .follow: "follow"
            case .mention: "mention"
            case .message: "message"
            case .unknown(let name): name
            }
        }

        /// The wire name.
        public var description: String { name }
    }

    /// The event's id (`ev12`).
    public var id: String
    /// What happened.
    public var kind: Kind
    /// Who did it.
    public var actor: User
    /// The post it is about, if any (absent for follows and deleted posts); a message's shared
    /// post.
    public var media: Media?
    /// The message a `message` event is about (without its shared post's card: that is
    /// `media`).
    public var message: Message?
    /// When it happened.
    public var createdAt: Date

    /// Makes an event.
    public init(
        id: String, kind: Kind, actor: User, media: Media? = nil, message: Message? = nil, createdAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.actor = actor
        self.media = media
        self.message = message
        self.createdAt = createdAt
    }

    /// Decodes `{"id": "ev1", "kind": "like", "actor": {...}, "media": {...}, "message": {...},
    /// "createdAt": ms}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            id: try object.string("id"), kind: Kind(name: try object.string("kind")),
            actor: try object.decode(User.self, "actor"),
            media: try object.decodeOptional(Media.self, "media"),
            message: try object.decodeOptional(Message.self, "message"),
            createdAt: Date(wireMilliseconds: try object.int64("createdAt")))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "kind": .string(kind.name), "actor": actor.json,
            "createdAt": .int(createdAt.wireMilliseconds),
        ]
        if let media { fields["media"] = media.json }
        if let message { fields["message"] = message.json }
        return .object(fields)
    }
}
