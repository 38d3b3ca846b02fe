import MediaModel

/// A user's profile as `GET /v1/users/{id}` (and `GET /v1/me`) return it: the user, their
/// counts, whether the viewer follows them, and a page of their posts (newest first).
public struct Profile: WirePayload {
    /// The envelope key: `"profile"`.
    public static let envelopeKey = "profile"

    /// The user.
    public var user: User
    /// How many accounts follow them.
    public var followerCount: Int
    /// How many accounts they follow.
    public var followingCount: Int
    /// How many posts (replies included) they have.
    public var postCount: Int
    /// Whether the viewer follows them.
    public var viewerFollows: Bool
    /// Whether this is the viewer's own profile.
    public var isViewer: Bool
    /// A page of their posts; replies carry their parent as context.
    public var posts: FeedPage

    /// Makes a profile.
    public init(
        user: User, followerCount: Int, followingCount: Int, postCount: Int, viewerFollows: Bool,
        isViewer: Bool,
        posts: FeedPage
    ) {
        self.user = user
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.postCount = postCount
        self.viewerFollows = viewerFollows
        self.isViewer = isViewer
        self.posts = posts
    }

    /// Decodes a profile; the counts and `user` are required, the rest optional.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
        self.init(
            user: try object.decode(User.self, "user"),
            followerCount: try object.int("followerCount", in: counts),
            followingCount: try object.int("followingCount", in: counts),
            postCount: try object.int("postCount", in: counts),
            viewerFollows: try object.optionalBool("viewerFollows") ?? false,
            isViewer: try object.optionalBool("isViewer") ?? false,
            posts: try object.decodeOptional(FeedPage.self, "posts") ?? FeedPage(entries: []))
    }

    /// The wire form.
    public var json: JSONValue {
        [
            "user": user.json, "followerCount": .int(Int64(followerCount)),
            "followingCount": .int(Int64(followingCount)), "postCount": .int(Int64(postCount)),
            "viewerFollows": .bool(viewerFollows), "isViewer": .bool(isViewer), "posts": posts.json,
        ]
    }
}
