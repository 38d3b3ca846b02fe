/// An opaque page cursor: a list prefix and the sort key of the last item served
/// (`f:1714564800000.0.42`). Keyset cursors never skip or repeat an item when items are added
/// while a client pages.
struct Cursor: Equatable {
    var list: Character
    var parts: [Int64]

    var encoded: String { "\(list):" + parts.map(String.init).joined(separator: ".") }

    /// Reads a cursor of `list` with `count` parts.
    static func decode(_ text: String, list: Character, count: Int) throws(APIError) -> Cursor {
        let body = text.dropFirst(2)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false).map { Int64($0) }
        let cursor = Cursor(list: list, parts: parts.compactMap { $0 })
        // Only the spelling `encoded` writes: no sign, no leading zeros (`f:+1`, `f:01`).
        guard text.first == list, text.dropFirst().first == ":", parts.count == count,
            parts.allSatisfy({ $0 != nil }), cursor.encoded == text
        else {
            throw .invalidParameter(
                "cursor",
                "'\(text.prefix(60))' is not a cursor of this list; pass the nextCursor of a previous page "
                    + "of the same list, or leave it out for the first page")
        }
        return cursor
    }
}
