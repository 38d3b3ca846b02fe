/// The facts about a media that every surface shares: counts, the viewer's like, an edited
/// caption. `MediaStore` keeps one value per media id.
public struct MediaFacts: Hashable, Sendable {
    /// How many people liked the media.
    public var likeCount: Int
    /// Whether the signed-in viewer liked it.
    public var viewerLiked: Bool
    /// How many replies it has.
    public var replyCount: Int
    /// How many times it was reposted.
    public var repostCount: Int
    /// Whether the signed-in viewer reposted it.
    public var viewerReposted: Bool
    /// The caption after an edit; `nil` when never edited (show `Media.text`).
    public var caption: String?
    /// The server's revision of these facts; `MediaStore.apply` ignores older revisions.
    /// Servers that do not track revisions send 0 (then the last applied wins).
    public var revision: Int64

    /// Makes a set of facts.
    public init(
        likeCount: Int = 0, viewerLiked: Bool = false, replyCount: Int = 0, repostCount: Int = 0,
        viewerReposted: Bool = false, caption: String? = nil, revision: Int64 = 0
    ) {
        self.likeCount = likeCount
        self.viewerLiked = viewerLiked
        self.replyCount = replyCount
        self.repostCount = repostCount
        self.viewerReposted = viewerReposted
        self.caption = caption
        self.revision = revision
    }
}
