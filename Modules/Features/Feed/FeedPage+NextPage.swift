import MediaModel

extension FeedPage {
    /// Appends the page that follows this one: its entries not already here (a post that moved
    /// up between the two requests is listed once), and its cursor.
    ///
    /// - Complexity: O(n + m) for n entries here and m in `next`.
    mutating func append(nextPage next: FeedPage) {
        let known = Set(entries.map(\.id))
        entries += next.entries.filter { !known.contains($0.id) }
        nextCursor = next.nextCursor
    }
}
