import MediaModel

/// A thread as `GET /v1/posts/{id}/thread` returns it: the post's ancestors (root first), the
/// post, and a page of its direct replies (oldest first).
///
/// ```json
/// {"version": 1, "thread": {"ancestors": [{media}], "post": {media},
///  "replies": {"entries": [...], "nextCursor": "t:..."}}, "facts": {...}}
/// ```
public struct ThreadPage: WirePayload {
    /// The envelope key: `"thread"`.
    public static let envelopeKey = "thread"

    /// The chain of parents, from the root down to the post's parent.
    public var ancestors: [Media]
    /// The post the thread is about.
    public var post: Media
    /// A page of the post's direct replies.
    public var replies: FeedPage

    /// Makes a thread page.
    public init(ancestors: [Media], post: Media, replies: FeedPage) {
        self.ancestors = ancestors
        self.post = post
        self.replies = replies
    }

    /// Decodes a thread; `ancestors` and `replies` may be absent (none).
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            ancestors: try object.decodeArray(Media.self, "ancestors"),
            post: try object.decode(Media.self, "post"),
            replies: try object.decodeOptional(FeedPage.self, "replies") ?? FeedPage(entries: []))
    }

    /// The wire form.
    public var json: JSONValue {
        ["ancestors": .array(ancestors.map(\.json)), "post": post.json, "replies": replies.json]
    }
}
