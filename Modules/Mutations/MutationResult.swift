import MediaModel
import ServerAPI
import Wire

/// What a mutation endpoint answered: the client token echoed, what was made or changed, and
/// (in the envelope's facts) the updated shared facts, so the caller can confirm its
/// optimistic entry. Fields a mutation does not concern are nil.
public struct MutationResult: WirePayload {
    /// The envelope key: `"mutation"`.
    public static let envelopeKey = "mutation"

    /// The client token the request carried.
    public var clientToken: String
    /// The post or reply made.
    public var media: Media?
    /// The post liked, unliked, reposted or deleted.
    public var mediaID: MediaID?
    /// The parent of a reply.
    public var parentID: MediaID?
    /// The user followed or unfollowed.
    public var userID: UserID?
    /// The feed entry of a repost (`r12`).
    public var entryID: FeedEntryID?
    /// Whether this request changed anything (false when it was already so).
    public var changed: Bool?
    /// Whether the post is now liked by the viewer (like/unlike).
    public var liked: Bool?
    /// Whether the post is now reposted by the viewer.
    public var reposted: Bool?
    /// Whether the post is now deleted.
    public var deleted: Bool?
    /// Whether the viewer now follows the user (follow/unfollow).
    public var following: Bool?
    /// The followed user's follower count after the change.
    public var followerCount: Int?
    /// The viewer's following count after the change.
    public var followingCount: Int?
    /// The message sent (a direct message).
    public var message: Message?
    /// The conversation of the message sent.
    public var conversationID: ConversationID?
    /// Whether the server answered from its record of an earlier attempt with the same token
    /// (the `Idempotent-Replayed` header); set by `APIClient`, not part of the body.
    public var replayed: Bool

    /// Makes a result.
    public init(
        clientToken: String, media: Media? = nil, mediaID: MediaID? = nil, parentID: MediaID? = nil,
        userID: UserID? = nil, entryID: FeedEntryID? = nil, changed: Bool? = nil, liked: Bool? = nil,
        reposted: Bool? = nil, deleted: Bool? = nil, following: Bool? = nil, followerCount: Int? = nil,
        followingCount: Int? = nil, message: Message? = nil, conversationID: ConversationID? = nil,
        replayed: Bool = false
    ) {
        self.clientToken = clientToken
        self.media = media
        self.mediaID = mediaID
        self.parentID = parentID
        self.userID = userID
        self.entryID = entryID
        self.changed = changed
        self.liked = liked
        self.reposted = reposted
        self.deleted = deleted
        self.following = following
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.message = message
        self.conversationID = conversationID
        self.replayed = replayed
    }

    /// Decodes a result; only `clientToken` is required.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
        let clientToken = try object.string("clientToken")
        let media = try object.decodeOptional(Media.self, "media")
        let mediaID = try object.optionalString("mediaID").map { MediaID($0) }
        let parentID = try object.optionalString("parentID").map { MediaID($0) }
        let userID = try object.optionalString("userID").map { UserID($0) }
        let entryID = try object.optionalString("entryID").map { FeedEntryID($0) }
        let changed = try object.optionalBool("changed")
        let liked = try object.optionalBool("liked")
        let reposted = try object.optionalBool("reposted")
        let deleted = try object.optionalBool("deleted")
        let following = try object.optionalBool("following")
        let followerCount = try object.optionalInt("followerCount", in: counts)
        let followingCount = try object.optionalInt("followingCount", in: counts)
        let message = try object.decodeOptional(Message.self, "message")
        let conversationID = try object.optionalString("conversationID").map { ConversationID($0) }
        self.init(
            clientToken: clientToken, media: media, mediaID: mediaID, parentID: parentID, userID: userID,
            entryID: entryID, changed: changed, liked: liked, reposted: reposted, deleted: deleted,
            following: following, followerCount: followerCount, followingCount: followingCount,
            message: message,
            conversationID: conversationID)
    }

    /// The wire form (without `replayed`, which travels as a header).
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["clientToken": .string(clientToken)]
        if let media { fields["media"] = media.json }
        if let mediaID { fields["mediaID"] = .string(mediaID.rawValue) }
        if let parentID { fields["parentID"] = .string(parentID.rawValue) }
        if let userID { fields["userID"] = .string(userID.rawValue) }
        if let entryID { fields["entryID"] = .string(entryID.rawValue) }
        if let changed { fields["changed"] = .bool(changed) }
        if let liked { fields["liked"] = .bool(liked) }
        if let reposted { fields["reposted"] = .bool(reposted) }
        if let deleted { fields["deleted"] = .bool(deleted) }
        if let following { fields["following"] = .bool(following) }
        if let followerCount { fields["followerCount"] = .int(Int64(followerCount)) }
        if let followingCount { fields["followingCount"] = .int(Int64(followingCount)) }
        if let message { fields["message"] = message.json }
        if let conversationID { fields["conversationID"] = .string(conversationID.rawValue) }
        return .object(fields)
    }
}
