import Foundation
import MediaModel
import Wire

/// A change a user makes, as data: what the mutation manager journals and sends, and what
/// `APIClient.send(_:clientToken:)` turns into a request.
///
/// Its JSON form (`json`, `init(json:at:)`) is stable, so a journal can persist it:
/// `{"kind": "like", "mediaID": "m42"}`, `{"kind": "post", "text": "...", "attachments": [...]}`.
public enum Mutation: Hashable, Sendable, WireCodable {
    /// A new post.
    case post(text: String, attachments: [MediaModel.Attachment])
    /// A reply to a post.
    case reply(to: MediaID, text: String, attachments: [MediaModel.Attachment])
    /// Like a post.
    case like(MediaID)
    /// Take a like back.
    case unlike(MediaID)
    /// Repost a post.
    case repost(MediaID)
    /// Take a repost back.
    case unrepost(MediaID)
    /// Delete one's own post.
    case delete(MediaID)
    /// Follow a user.
    case follow(UserID)
    /// Stop following a user.
    case unfollow(UserID)

    /// The mutation's kind (`"like"`), as journals and logs name it.
    public var kind: String { mutationKind.rawValue }

    /// The mutation's kind without its values: the key of per-kind settings (retry policies).
    public var mutationKind: MutationKind {
        switch self {
        case .post: .post
        case .reply: .reply
        case .like: .like
        case .unlike: .unlike
        case .repost: .repost
        case .unrepost: .unrepost
        case .delete: .delete
        case .follow: .follow
        case .unfollow: .unfollow
        }
    }

    /// The request that applies the mutation with `clientToken` (sent as `Idempotency-Key`).
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
        func post(_ id: MediaID) -> String { "/v1/posts/\(Request.pathSegment(id.rawValue))" }
        func user(_ id: UserID) -> String { "/v1/users/\(Request.pathSegment(id.rawValue))" }
        func body(_ text: String, _ attachments: [MediaModel.Attachment]) throws(TransportError) -> Data {
            headers["Content-Type"] = "application/json"
            var sent: [JSONValue] = []
            for attachment in attachments { sent.append(try Self.uploadForm(of: attachment)) }
            return JSONValue.object(["text": .string(text), "attachments": .array(sent)]).serialized()
        }
        switch self {
        case .post(let text, let attachments):
            let data = try body(text, attachments)
            return Request(.post, "/v1/posts", headers: headers, body: data)
        case .reply(let parent, let text, let attachments):
            let data = try body(text, attachments)
            return Request(.post, post(parent) + "/replies", headers: headers, body: data)
        case .like(let id): return Request(.put, post(id) + "/like", headers: headers)
        case .unlike(let id): return Request(.delete, post(id) + "/like", headers: headers)
        case .repost(let id): return Request(.put, post(id) + "/repost", headers: headers)
        case .unrepost(let id): return Request(.delete, post(id) + "/repost", headers: headers)
        case .delete(let id): return Request(.delete, post(id), headers: headers)
        case .follow(let id): return Request(.put, user(id) + "/follow", headers: headers)
        case .unfollow(let id): return Request(.delete, user(id) + "/follow", headers: headers)
        }
    }

    /// Decodes a journaled mutation by its `kind`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let name = try object.string("kind")
        guard let kind = MutationKind(rawValue: name) else {
            throw WireFormatError(
                path: path.appending("kind"),
                problem: "unknown mutation kind \(JSONValue.string(name).briefDescription); this build knows "
                    + MutationKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch kind {
        case .post:
            self = .post(
                text: try object.string("text"),
                attachments: try object.decodeArray(MediaModel.Attachment.self, "attachments"))
        case .reply:
            self = .reply(
                to: MediaID(try object.string("mediaID")), text: try object.string("text"),
                attachments: try object.decodeArray(MediaModel.Attachment.self, "attachments"))
        case .like: self = .like(MediaID(try object.string("mediaID")))
        case .unlike: self = .unlike(MediaID(try object.string("mediaID")))
        case .repost: self = .repost(MediaID(try object.string("mediaID")))
        case .unrepost: self = .unrepost(MediaID(try object.string("mediaID")))
        case .delete: self = .delete(MediaID(try object.string("mediaID")))
        case .follow: self = .follow(UserID(try object.string("userID")))
        case .unfollow: self = .unfollow(UserID(try object.string("userID")))
        }
    }

    /// The journal form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["kind": .string(kind)]
        switch self {
        case .post(let text, let attachments):
            fields["text"] = .string(text)
            fields["attachments"] = .array(attachments.map(\.json))
        case .reply(let parent, let text, let attachments):
            fields["mediaID"] = .string(parent.rawValue)
            fields["text"] = .string(text)
            fields["attachments"] = .array(attachments.map(\.json))
        case .like(let id), .unlike(let id), .repost(let id), .unrepost(let id), .delete(let id):
            fields["mediaID"] = .string(id.rawValue)
        case .follow(let id), .unfollow(let id):
            fields["userID"] = .string(id.rawValue)
        }
        return .object(fields)
    }
}
