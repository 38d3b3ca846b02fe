import MediaModel

/// The row heights a list computed for one entry at one width, to store in the cache.
public struct EntryHeights: Hashable, Sendable {
    /// The entry.
    public var entryID: FeedEntryID
    /// The entry's content version the heights were computed for (`CachedEntry.version`).
    public var version: Int64
    /// The height of each of the entry's rows, top to bottom (0...65535 each, at most 254 rows).
    public var rows: [Int]

    /// Makes heights.
    public init(entryID: FeedEntryID, version: Int64, rows: [Int]) {
        self.entryID = entryID
        self.version = version
        self.rows = rows
    }
}
