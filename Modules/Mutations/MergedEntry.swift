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

    /// Makes a merged entry.
    public init(entry: FeedEntry, facts: MediaFacts, parentFacts: MediaFacts? = nil, status: OptimisticStatus)
    {
        self.entry = entry
        self.facts = facts
        self.parentFacts = parentFacts
        self.status = status
    }

    /// The entry's id.
    public var id: FeedEntryID { entry.id }
}
