import MediaModel
import ServerAPI
import Wire

// Every kind of change, described once. A new kind is a new description here, listed in `all`;
// see AddingAMutationKind.md. Names and journal tags are stored on disk: never rename a kind or
// reuse a tag, not even one of a kind that was removed.

extension MutationKind {
    /// Every kind this build knows. The post keys' rows (help and footer) follow this order.
    public static let all: [MutationKind] = [
        .post, .like, .unlike, .reply, .repost, .unrepost, .delete, .follow, .unfollow, .message, .profile,
    ]

    /// A new post.
    public static let post = MutationKind(
        "post", tag: 1, subject: .newPost, .post, path: "", effect: .newPost, confirmation: .post,
        progress: "posting…")
    /// A reply to a post.
    public static let reply = MutationKind(
        "reply", tag: 2, subject: .reply, .post, path: "replies", effect: .newReply, confirmation: .post,
        progress: "replying…", key: PostKey("r", .compose, help: "reply"))
    /// A like.
    public static let like = MutationKind(
        "like", tag: 3, subject: .media, .put, path: "like", effect: .flag(.liked, true), undo: "unlike",
        key: PostKey("l", help: "like"))
    /// A like taken back.
    public static let unlike = MutationKind(
        "unlike", tag: 4, subject: .media, .delete, path: "like", effect: .flag(.liked, false))
    /// A repost.
    public static let repost = MutationKind(
        "repost", tag: 5, subject: .media, .put, path: "repost", effect: .flag(.reposted, true),
        undo: "unrepost",
        key: PostKey(
            "s", help: "repost / undo repost", footer: (off: "repost", on: "undo repost"),
            said: PostKey.Said(
                on: "reposted {post}", off: "repost of {post} undone", refusedOn: "repost {post}",
                refusedOff: "undo the repost of {post}")))
    /// A repost taken back.
    public static let unrepost = MutationKind(
        "unrepost", tag: 9, subject: .media, .delete, path: "repost", effect: .flag(.reposted, false),
        title: "undo repost")
    /// The deletion of one's own post.
    public static let delete = MutationKind(
        "delete", tag: 6, subject: .media, .delete, path: "", effect: .hide, confirmation: .deleted,
        forbidden: "not allowed: only the post's author may delete it", progress: "deleting…",
        key: PostKey("d", .confirmTwice, help: "delete", inFooter: false))
    /// Following a user.
    public static let follow = MutationKind(
        "follow", tag: 7, subject: .user, .put, path: "follow", effect: .follow(true),
        confirmation: .relationship(following: true))
    /// No longer following a user.
    public static let unfollow = MutationKind(
        "unfollow", tag: 8, subject: .user, .delete, path: "follow", effect: .follow(false),
        confirmation: .relationship(following: false))
    /// A direct message in a conversation; no post key (it is not a change of a post).
    public static let message = MutationKind(
        "message", tag: 10, subject: .conversation, .post, path: "messages", effect: .newMessage,
        confirmation: .message, progress: "sending…")
    /// The viewer's display name and bio; no post key (the profile's `e` edits them).
    public static let profile = MutationKind(
        "profile", tag: 11, subject: .account, .put, path: "profile", effect: .profile, title: "name and bio",
        progress: "saving…")
}

extension Mutation {
    /// A new post.
    public static func post(text: String, attachments: [MediaModel.Attachment]) -> Mutation {
        Mutation(.post, text: text, attachments: attachments)
    }

    /// A reply to `parent`.
    public static func reply(to parent: MediaID, text: String, attachments: [MediaModel.Attachment])
        -> Mutation
    {
        Mutation(.reply, to: parent, text: text, attachments: attachments)
    }

    /// Like a post.
    public static func like(_ id: MediaID) -> Mutation { Mutation(.like, id) }
    /// Take a like back.
    public static func unlike(_ id: MediaID) -> Mutation { Mutation(.unlike, id) }
    /// Repost a post.
    public static func repost(_ id: MediaID) -> Mutation { Mutation(.repost, id) }
    /// Take a repost back.
    public static func unrepost(_ id: MediaID) -> Mutation { Mutation(.unrepost, id) }
    /// Delete one's own post.
    public static func delete(_ id: MediaID) -> Mutation { Mutation(.delete, id) }
    /// Follow a user.
    public static func follow(_ id: UserID) -> Mutation { Mutation(.follow, id) }
    /// Stop following a user.
    public static func unfollow(_ id: UserID) -> Mutation { Mutation(.unfollow, id) }

    /// A direct message in `conversation`: text, photos (each with a `file`, uploaded when sent,
    /// as a post's are) and a post shared as a card, at least one of them.
    ///
    /// ```swift
    /// let token = try await manager.enqueue(.message(in: "c1", text: "look at this", sharing: "m12"))
    /// ```
    public static func message(
        in conversation: ConversationID, text: String, attachments: [MediaModel.Attachment] = [],
        sharing sharedPost: MediaID? = nil
    ) -> Mutation {
        Mutation(.message, in: conversation, text: text, attachments: attachments, sharing: sharedPost)
    }

    /// The viewer's new display name, bio or both (nil keeps one as it is), as the JSON the
    /// server takes.
    ///
    /// ```swift
    /// try await manager.enqueue(.profile(displayName: "Grace H.", bio: nil))
    /// ```
    public static func profile(displayName: String?, bio: String?) -> Mutation {
        var fields: [String: JSONValue] = [:]
        if let displayName { fields["displayName"] = .string(displayName) }
        if let bio { fields["bio"] = .string(bio) }
        return Mutation(
            .profile, fields: String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self))
    }
}
