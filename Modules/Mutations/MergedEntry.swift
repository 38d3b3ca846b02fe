import MediaModel

/// One row of a merged view: a feed entry (from the server, or a post made on this device), the
/// shared facts to show with it (server facts plus pending effects), and where it comes from.
public struct MergedEntry: Hashable, Sendable, Identifiable {
    /// The entry; a post only this device knows has the id `local:<token>`.
    public var entry: FeedEntry
    /// The facts of `entry.media`: the server's, with pending likes, reposts and replies applied.
    public var facts: MediaFacts
    /// The facts of a reply's parent (for `.reply(parent:)` contexts), merged the same way.
    public var parentFacts: MediaFacts?
    /// Whether the entry is server data, pending or failed.
    public var status: OptimisticStatus
    /// The kinds of this device's changes to the post that failed for good (a like the server
    /// refused: its effect is taken back), oldest first, until retried or discarded in Sync.
    /// Empty in the usual case.
    public var notSent: [MutationKind]

    /// Makes a merged entry.
    public init(
        entry: FeedEntry, facts: MediaFacts, parentFacts: MediaFacts? = nil, status: OptimisticStatus,
        notSent: [MutationKind] = []
    ) {
        self.entry = entry
        self.facts = facts
        self.parentFacts = parentFacts
        self.status = status
        self.notSent = notSent
    }

    /// The entry's id.
    public var id: FeedEntryID { entry.id }
}
