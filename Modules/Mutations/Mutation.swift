import Foundation
import MediaModel
import ServerAPI
import Wire

/// A change a user makes, as data: what the mutation manager journals and sends.
///
/// A mutation is its ``MutationKind`` and what it acts on: a post (`media`), a user (`user`),
/// a conversation (`conversation`), or nothing (a new post), with the text and attachments of a
/// post, a reply or a message. Everything that
/// differs between kinds (the request, the lane, the optimistic effect, the confirmation) comes
/// from the kind's description, so nothing here switches over kinds. Build one with the kind's
/// initializer (`Mutation(.like, id)`) or its shorthand (`.like(id)`).
public struct Mutation: Hashable, Sendable {
    /// What kind of change this is.
    public let kind: MutationKind
    /// The post the change acts on: a reply's parent; the liked, reposted or deleted post; the
    /// post a message shares.
    public let media: MediaID?
    /// The user the change acts on (a follow).
    public let user: UserID?
    /// The conversation a message goes to.
    public let conversation: ConversationID?
    /// The text of a post, a reply or a message; empty for other kinds.
    public let text: String
    /// The attachments of a post, a reply or a message; empty for other kinds.
    public let attachments: [MediaModel.Attachment]

    private init(
        kind: MutationKind, media: MediaID?, user: UserID?, conversation: ConversationID? = nil, text: String,
        attachments: [MediaModel.Attachment]
    ) {
        self.kind = kind
        self.media = media
        self.user = user
        self.conversation = conversation
        self.text = text
        self.attachments = attachments
    }

    /// A change of a kind that acts on a post (`subject` is `.media`).
    public init(_ kind: MutationKind, _ media: MediaID) {
        precondition(kind.subject == .media, "\(kind) does not act on a post")
        self.init(kind: kind, media: media, user: nil, text: "", attachments: [])
    }

    /// A change of a kind that acts on a user (`subject` is `.user`).
    /// A change of the viewer's own account, its fields as the JSON object the server takes
    /// (``Mutation/profile(displayName:bio:)`` makes it).
    public init(_ kind: MutationKind, fields: String) {
        precondition(kind.subject == .account, "\(kind) does not change the viewer's account")
        self.init(kind: kind, media: nil, user: nil, text: fields, attachments: [])
    }

    public init(_ kind: MutationKind, _ user: UserID) {
        precondition(kind.subject == .user, "\(kind) does not act on a user")
        self.init(kind: kind, media: nil, user: user, text: "", attachments: [])
    }

    /// A new post (`parent` nil) or a reply to `parent`.
    public init(
        _ kind: MutationKind, to parent: MediaID? = nil, text: String, attachments: [MediaModel.Attachment]
    ) {
        precondition(
            kind.carriesContent && (parent != nil) == (kind.subject == .reply), "\(kind) is not a post")
        self.init(kind: kind, media: parent, user: nil, text: text, attachments: attachments)
    }

    /// A message in `conversation` (`subject` is `.conversation`), sharing `sharedPost` when
    /// given.
    public init(
        _ kind: MutationKind, in conversation: ConversationID, text: String,
        attachments: [MediaModel.Attachment] = [], sharing sharedPost: MediaID? = nil
    ) {
        precondition(kind.subject == .conversation, "\(kind) is not a message")
        self.init(
            kind: kind, media: sharedPost, user: nil, conversation: conversation, text: text,
            attachments: attachments)
    }

    /// A mutation read back from its parts, or nil when they do not fit the kind's subject (a
    /// like without a post).
    static func checked(
        _ kind: MutationKind, media: MediaID?, user: UserID?, conversation: ConversationID? = nil,
        text: String,
        attachments: [MediaModel.Attachment]
    ) -> Mutation? {
        let fits =
            switch kind.subject {
            case .newPost: media == nil && user == nil && conversation == nil
            case .reply: media != nil && user == nil && conversation == nil
            case .media:
                media != nil && user == nil && conversation == nil && text.isEmpty && attachments.isEmpty
            case .user:
                user != nil && media == nil && conversation == nil && text.isEmpty && attachments.isEmpty
            case .conversation: conversation != nil && user == nil
            case .account: media == nil && user == nil && conversation == nil && attachments.isEmpty
            }
        return fits
            ? Mutation(
                kind: kind, media: media, user: user, conversation: conversation, text: text,
                attachments: attachments)
            : nil
    }

    // MARK: What the kind says

    /// The lane the mutation is sent in: mutations of one lane go strictly in the order made.
    /// The subject decides it: new posts share one lane; a reply goes in its thread's; a change of
    /// a post or a user in that post's or user's (see `MutationLane`).
    public var lane: MutationLane {
        switch kind.subject {
        case .newPost: .posts
        case .reply: .thread(media ?? MediaID(""))
        case .media: .media(media ?? MediaID(""))
        case .user: .user(user ?? UserID(""))
        case .conversation: .conversation(conversation ?? ConversationID(""))
        case .account: .account
        }
    }

    /// The media the mutation acts on (a reply's parent; the liked, reposted or deleted post; the
    /// post a message shares), or nil when it names none (a new post, a follow).
    ///
    /// A target that is a post still pending on this device (`local:<token>`) makes the mutation
    /// wait for that post: it is sent with the server's id once the post is confirmed.
    public var targetMedia: MediaID? { media }

    /// The same mutation acting on `target` instead (a pending post's server id, once known).
    public func retargeted(to target: MediaID) -> Mutation {
        guard media != nil else { return self }
        return Mutation(
            kind: kind, media: target, user: user, conversation: conversation, text: text,
            attachments: attachments)
    }

    /// What the mutation shows while it is pending.
    public var optimisticEffect: OptimisticEffect {
        let id = media ?? MediaID("")
        switch kind.effect {
        case .newPost: return .newPost(text: text, attachments: attachments)
        case .newReply: return .newReply(parent: id, text: text, attachments: attachments)
        case .flag(let flag, let value): return .flag(id, flag, value)
        case .hide: return .hidden(id)
        case .follow(let following): return .following(user ?? UserID(""), following)
        case .profile:
            let fields = profileFields
            return .profile(displayName: fields.displayName, bio: fields.bio)
        case .newMessage:
            return .newMessage(
                conversation: conversation ?? ConversationID(""), text: text, attachments: attachments,
                sharedPost: media)
        }
    }

    /// What the confirming response of this mutation leaves behind (see `MutationConfirmation`).
    public func confirmation(from result: MutationResult) -> MutationConfirmation {
        switch kind.confirmation {
        case .facts: return .facts
        case .post:
            guard let made = result.media else { return .facts }
            return .post(made, parent: kind.subject == .reply ? result.parentID ?? media : nil)
        case .deleted: return .deleted(result.mediaID ?? media ?? MediaID(""))
        case .relationship(let following):
            return .relationship(
                result.userID ?? user ?? UserID(""), following: result.following ?? following,
                followerCount: result.followerCount)
        case .message:
            guard let message = result.message else { return .facts }
            return .message(message)
        }
    }

    /// What a refusal of this mutation leaves behind when the refusal means the change already
    /// holds, or nil when it is a refusal (the mutation fails and its effect is rolled back).
    ///
    /// A delete answered 404 is done: the post is already gone (deleted from another device or
    /// the other app), which is what the delete asked for, so it stays hidden rather than coming
    /// back. Every other refusal, a like of a post that is gone included, is a refusal.
    public func confirmation(refusedWith error: TransportError) -> MutationConfirmation? {
        guard kind.confirmation == .deleted, error.errorClass == .notFound, let media else { return nil }
        return .deleted(media)
    }

    // MARK: The request

    /// The request that applies the mutation with `clientToken` (sent as `Idempotency-Key`): the
    /// kind's method on its path under the subject's (`PUT /v1/posts/m12/like`).
    ///
    /// A photo waiting to be uploaded (one with a `file`, its durable copy) goes as
    /// its file's bytes, base64 in the photo's `data` field, read now: the journal keeps the
    /// path, never the bytes.
    ///
    /// - Throws: A permanent `TransportError` (`client error`) when such a file cannot be read
    ///   (the copy is gone): the change fails with a message saying so, nothing is sent.
    public func request(clientToken: String, bearerToken: String?) throws(TransportError) -> Request {
        var headers: Headers = ["Idempotency-Key": clientToken]
        if let bearerToken { headers["Authorization"] = "Bearer \(bearerToken)" }
        var path =
            switch kind.subject {
            case .newPost: "/v1/posts"
            case .reply, .media: "/v1/posts/\(Request.pathSegment((media ?? MediaID("")).rawValue))"
            case .user: "/v1/users/\(Request.pathSegment((user ?? UserID("")).rawValue))"
            case .conversation:
                "/v1/conversations/\(Request.pathSegment((conversation ?? ConversationID("")).rawValue))"
            case .account: "/v1/me"
            }
        if !kind.path.isEmpty { path += "/" + kind.path }
        guard kind.carriesContent else { return Request(kind.method, path, headers: headers) }
        headers["Content-Type"] = "application/json"
        // An account change's text is its body as the server takes it.
        if kind.subject == .account {
            return Request(kind.method, path, headers: headers, body: Data(text.utf8))
        }
        var sent: [JSONValue] = []
        for attachment in attachments { sent.append(try Self.uploadForm(of: attachment)) }
        var fields: [String: JSONValue] = ["text": .string(text), "attachments": .array(sent)]
        if kind.subject == .conversation, let media { fields["sharedPostID"] = .string(media.rawValue) }
        let body = JSONValue.object(fields).serialized()
        return Request(kind.method, path, headers: headers, body: body)
    }
}

extension Mutation {
    /// The display name and bio an account change sets (nil: unchanged); both nil for any other
    /// kind, or a text that is not the fields' JSON.
    public var profileFields: (displayName: String?, bio: String?) {
        guard kind.subject == .account, let object = try? JSONValue(parsing: Data(text.utf8)),
            case .object(let fields) = object
        else { return (nil, nil) }
        return (fields["displayName"]?.stringValue, fields["bio"]?.stringValue)
    }
}

extension Mutation: CustomStringConvertible {
    /// The kind and what it acts on (`like m12`, `follow u3`, `post "Hello"`), for logs and test
    /// failures.
    public var description: String {
        if let media, kind.subject == .media { return "\(kind) \(media.rawValue)" }
        if kind.subject == .account {
            let fields = profileFields
            return "\(kind)" + (fields.displayName.map { " \"\($0)\"" } ?? "")
                + (fields.bio.map { _ in " +bio" } ?? "")
        }
        if let user { return "\(kind) \(user.rawValue)" }
        if let conversation {
            let words = text.count > 20 ? String(text.prefix(20)) + "…" : text
            let shared = media.map { " sharing \($0.rawValue)" } ?? ""
            return "\(kind) to \(conversation.rawValue) \"\(words)\"\(shared)"
                + (attachments.isEmpty ? "" : " +\(attachments.count)")
        }
        let words = text.count > 20 ? String(text.prefix(20)) + "…" : text
        let parent = media.map { " to \($0.rawValue)" } ?? ""
        return "\(kind)\(parent) \"\(words)\"" + (attachments.isEmpty ? "" : " +\(attachments.count)")
    }
}
