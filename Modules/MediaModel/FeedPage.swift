/// One page of a feed: entries in display order and the cursor of the next page.
public struct FeedPage: Hashable, Sendable {
    /// The entries, in display order.
    public var entries: [FeedEntry]
    /// Opaque cursor for the next page; `nil` on the last page.
    public var nextCursor: String?

    /// Makes a page.
    public init(entries: [FeedEntry], nextCursor: String? = nil) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}
