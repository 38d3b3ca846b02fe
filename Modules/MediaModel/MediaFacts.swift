/// The facts about a media that every surface shares: counts, the viewer's like, an edited
/// caption. `MediaStore` keeps one value per media id.
///
/// Each fact is described once, in ``fields``: its wire name, its kind and whether the wire
/// form requires it. The JSON wire form, the feed cache's binary form, the backend's responses
/// and the test oracle all follow that table; see <doc:MediaAndFacts> for adding a fact.
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

    /// Every fact, once, in the order the feed cache stores them. The wire form, the feed
    /// cache, the backend's responses and the test oracle are derived from this list, so a new
    /// fact is a property above, a parameter of `init`, and one line at the end of this list (a
    /// test fails when a property is missing here): its wire name and how to get and set it
    /// (closures, not key paths: the backend reads and writes every fact of every post it
    /// serves, and a key path is several times slower to follow).
    ///
    /// The facts older than the table keep their wire form: `likeCount` and `replyCount` are
    /// required, and `viewerLiked`, `repostCount` and `revision` are always written. A new fact
    /// takes the default, `.whenSet`: optional when read, written only when not its default, so
    /// older builds and servers understand documents with and without it.
    public static let fields: [Field] = [
        .count("likeCount", { $0.likeCount }, { $0.likeCount = $1 }, onTheWire: .required),
        .flag("viewerLiked", { $0.viewerLiked }, { $0.viewerLiked = $1 }, onTheWire: .alwaysWritten),
        .count("replyCount", { $0.replyCount }, { $0.replyCount = $1 }, onTheWire: .required),
        .count("repostCount", { $0.repostCount }, { $0.repostCount = $1 }, onTheWire: .alwaysWritten),
        .text("caption", { $0.caption }, { $0.caption = $1 }),
        .revision("revision", { $0.revision }, { $0.revision = $1 }, onTheWire: .alwaysWritten),
        .flag("viewerReposted", { $0.viewerReposted }, { $0.viewerReposted = $1 }),
    ]
}
