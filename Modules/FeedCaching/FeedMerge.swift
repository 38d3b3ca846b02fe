import MediaModel

/// What a refresh or a page load changed in the cache.
public struct FeedMerge: Hashable, Sendable {
    /// Entries new to the cache, in feed order.
    public var inserted: [FeedEntryID]
    /// Entries already cached whose content changed.
    public var updated: [FeedEntryID]
    /// Entries dropped: gone from the server's first page, gone from the pages a reconcile
    /// fetched again (an unfollowed account's) or cached below them, or everything when the cache
    /// was reset.
    public var removed: [FeedEntryID]
    /// Whether the fresh page did not connect to the cached feed, so the cache now holds only it.
    public var didReset: Bool
    /// How many entries the cache holds now.
    public var count: Int
    /// The cursor of the page after the last cached entry, if any.
    public var tailCursor: String?
    /// Whether the server said the first page is still the one cached (a 304 to the cache's
    /// entity tag): nothing was fetched or written, and a list showing the cache has nothing to
    /// merge or redraw.
    public var unchanged: Bool

    /// Makes a merge result.
    public init(
        inserted: [FeedEntryID] = [], updated: [FeedEntryID] = [], removed: [FeedEntryID] = [],
        didReset: Bool = false,
        count: Int = 0, tailCursor: String? = nil, unchanged: Bool = false
    ) {
        self.unchanged = unchanged
        self.inserted = inserted
        self.updated = updated
        self.removed = removed
        self.didReset = didReset
        self.count = count
        self.tailCursor = tailCursor
    }
}
