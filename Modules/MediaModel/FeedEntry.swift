/// One row of a list: its own identity, the media it shows, and how this surface shows it.
///
/// Entries, not media, carry list identity: the same media may appear twice in one list (as a
/// post and as a reply's parent). Facts in an entry are what this surface saw; they never
/// overwrite the shared facts in `MediaStore`.
public struct FeedEntry: Hashable, Sendable, Identifiable {
    /// The entry's identity in its list, distinct from the media's id.
    public var id: FeedEntryID
    /// The media the entry shows.
    public var media: Media
    /// How the media appears here: on its own, as a reply with its parent, or as a repost.
    public var context: Context
    /// The reply count as this surface saw it (for example the replies loaded in a thread), if
    /// the surface tracks one; the shared count is `MediaStore`'s.
    public var seenReplyCount: Int?

    /// Makes an entry.
    public init(id: FeedEntryID, media: Media, context: Context = .standalone, seenReplyCount: Int? = nil) {
        self.id = id
        self.media = media
        self.context = context
        self.seenReplyCount = seenReplyCount
    }

    /// How a media appears in a list.
    public enum Context: Hashable, Sendable {
        /// On its own.
        case standalone
        /// A reply, shown below its parent for context.
        case reply(parent: Media)
        /// Reposted by someone.
        case repost(by: User)
        /// A context this build does not know, kept raw; show the entry as standalone.
        case unknown(UnknownPayload)
    }

    /// The ids of every media the entry shows (the media, and a reply's parent), in display order.
    public var mediaIDs: [MediaID] {
        if case .reply(let parent) = context { return [parent.id, media.id] }
        return [media.id]
    }

    /// Whether the entry is a reply (shown with its parent, or left off Home by a feed policy
    /// that shows no replies).
    public var isReply: Bool {
        if case .reply = context { return true }
        return false
    }
}
