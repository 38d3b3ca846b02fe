/// What a cold start shows before any network call: the entries that fill the first screen,
/// every cached entry's heights at the screen's width, and where the cache ends.
public struct FirstScreen: Hashable, Sendable {
    /// The top entries, enough to fill the requested rows.
    public var entries: [CachedEntry]
    /// Heights of every cached entry at the width, in feed order.
    public var heights: HeightTable
    /// How many entries the cache holds.
    public var totalCount: Int
    /// The cursor that loads the page after the last cached entry, if there is one.
    public var tailCursor: String?

    /// Makes a first screen.
    public init(entries: [CachedEntry], heights: HeightTable, totalCount: Int, tailCursor: String?) {
        self.entries = entries
        self.heights = heights
        self.totalCount = totalCount
        self.tailCursor = tailCursor
    }

    /// Whether the cache held nothing.
    public var isEmpty: Bool { totalCount == 0 }
}
