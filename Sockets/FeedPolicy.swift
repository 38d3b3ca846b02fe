import Composition
import MediaModel

/// What the home feed shows: which kinds of media, how many entries a page holds, and whether a
/// reply appears with its parent above it.
public protocol FeedPolicy: Sendable {
    /// The known media kinds the home feed shows; entries of other known kinds are left out.
    var shownKinds: Set<MediaKind> { get }
    /// Whether media of kinds this build does not know appear (through the fallback row).
    var showsUnknownKinds: Bool { get }
    /// How many entries one page of the feed asks the server for.
    var pageSize: Int { get }
    /// Whether a reply in the feed is shown below its parent, for context. When not, a reply in a
    /// list (Home, a profile) opens with one line naming what it answers ("↩ comment on @grace:
    /// her first words…").
    var showsReplyParent: Bool { get }
    /// Whether a reply appears on Home as an entry of its own. An app whose replies are comments
    /// under a post says no: they are read under their post, never as posts.
    var showsReplies: Bool { get }
}

extension FeedPolicy {
    /// Replies appear on Home.
    public var showsReplies: Bool { true }
}

extension FeedPolicy {
    /// Whether the home feed shows media of `kind`.
    public func shows(_ kind: MediaKind) -> Bool {
        kind.isKnown ? shownKinds.contains(kind) : showsUnknownKinds
    }
}

@usableFromInline let feedPolicySocket = Socket<any FeedPolicy>.required(
    "feedPolicy", summary: "which media kinds the home feed shows, page size, reply parents")

extension Socket where Contract == any FeedPolicy {
    /// Which media kinds the home feed shows, its page size and reply context. Required.
    @inlinable public static var feedPolicy: Socket<any FeedPolicy> { feedPolicySocket }
}
