import MediaModel

/// A feed entry as the cache holds it: the entry, where it sits (0 = top of the feed), and its
/// content version, the key its row heights are stored under.
public struct CachedEntry: Hashable, Sendable, Identifiable {
    /// The entry.
    public var entry: FeedEntry
    /// Its index in the cached feed, 0 at the top.
    public var index: Int
    /// Its content version: changes whenever anything the entry shows changes.
    public var version: Int64

    /// Makes a cached entry.
    public init(entry: FeedEntry, index: Int, version: Int64) {
        self.entry = entry
        self.index = index
        self.version = version
    }

    /// The entry's id.
    public var id: FeedEntryID { entry.id }
}
