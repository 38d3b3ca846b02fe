import Foundation

/// One piece of media: a post or a reply, with its author, time, text and attachments.
///
/// A media value is the content as the server wrote it. Facts shared across surfaces (likes,
/// replies, an edited caption) live in `MediaStore`; where a media sits in a list (as a post,
/// a reply's parent, a repost) lives in `FeedEntry`.
public struct Media: Hashable, Sendable, Identifiable {
    /// The media's identity.
    public let id: MediaID
    /// Who posted it.
    public let author: User
    /// When it was posted (millisecond precision on the wire).
    public let createdAt: Date
    /// The text: the post itself for a text media, the caption otherwise. May be empty.
    public let text: String
    /// Photos, videos, carousels, or unknown attachments; empty for a text media.
    public let attachments: [Attachment]
    /// The raw payload when the media arrived under a kind this build does not know.
    ///
    /// Such a media keeps its common fields (id, author, time, text), has no attachments, and
    /// encodes back as it arrived.
    public let unknownKind: UnknownPayload?
    /// The client-made token of the mutation that created this post, when the server knows it
    /// (posts made through the mutation manager): lets a list that already holds a post still
    /// pending on its author's device be matched to it.
    public let clientToken: String?

    /// Makes a media from its content.
    public init(
        id: MediaID, author: User, createdAt: Date, text: String, attachments: [Attachment] = [],
        clientToken: String? = nil
    ) {
        self.init(
            id: id, author: author, createdAt: createdAt, text: text, attachments: attachments,
            unknownKind: nil, clientToken: clientToken)
    }

    init(
        id: MediaID, author: User, createdAt: Date, text: String, attachments: [Attachment],
        unknownKind: UnknownPayload?, clientToken: String? = nil
    ) {
        self.id = id
        self.author = author
        self.createdAt = createdAt
        self.text = text
        self.attachments = attachments
        self.unknownKind = unknownKind
        self.clientToken = clientToken
    }

    /// What the media is, following from its attachments.
    ///
    /// An unknown wire kind wins; then any unknown attachment makes the media `unknown` (with
    /// that attachment's type name); then: none → `text`, one photo → `photo`, one video →
    /// `video`, a carousel or several photos and videos → `carousel`.
    public var kind: MediaKind {
        if let unknownKind { return .unknown(unknownKind.typeName) }
        for attachment in attachments {
            if case .unknown(let payload) = attachment { return .unknown(payload.typeName) }
        }
        switch attachments.count {
        case 0: return .text
        case 1: break
        default: return .carousel
        }
        switch attachments[0] {
        case .photo: return .photo
        case .video: return .video
        case .carousel: return .carousel
        case .unknown(let payload): return .unknown(payload.typeName)
        }
    }
}

extension Media {
    /// The same media under another version of its author (a new display name or bio): every
    /// other part is kept as it is. A media of a kind this build does not know is written back
    /// from its payload, so the payload's `author` is replaced too.
    public func byAuthor(_ author: User) -> Media {
        var payload = unknownKind
        if let unknown = unknownKind, case .object(var fields) = unknown.raw {
            fields["author"] = author.json
            payload = UnknownPayload(typeName: unknown.typeName, raw: .object(fields))
        }
        return Media(
            id: id, author: author, createdAt: createdAt, text: text, attachments: attachments,
            unknownKind: payload, clientToken: clientToken)
    }
}
