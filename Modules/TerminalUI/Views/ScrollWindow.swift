/// Which rows of a list fit in a few lines, scrolled as little as possible to keep the selected
/// row in view, with a line kept for "↑ n more" above and "↓ n more" below wherever rows are cut
/// off. It remembers the first row it showed, so moving the selection inside the window does not
/// scroll it. Used by the short lists screens draw themselves (changes, photos, accounts).
///
/// ```swift
/// var window = ScrollWindow()
/// window.rows(heights: [1, 1, 1, 1, 1], selection: 4, room: 3)  // 3..<5, "↑ 3 more" above
/// ```
public struct ScrollWindow: Sendable, Equatable {
    /// The first row shown last time.
    public private(set) var firstShown = 0

    /// A window showing the list from its first row.
    public init() {}

    /// The rows to draw in `room` lines, row `i` being `heights[i]` lines tall: never fewer than
    /// the selected row. Lines for "↑ n more" (when the range starts after row 0) and "↓ n more"
    /// (when it ends before the last row) are counted in `room`.
    public mutating func rows(heights: [Int], selection: Int, room: Int) -> Range<Int> {
        guard !heights.isEmpty else { return 0..<0 }
        let selection = min(max(selection, 0), heights.count - 1)
        func end(from start: Int) -> Int {
            var used = start > 0 ? 1 : 0
            var end = start
            while end < heights.count {
                let more = end + 1 < heights.count ? 1 : 0
                guard used + heights[end] + more <= room else { break }
                used += heights[end]
                end += 1
            }
            return max(end, start + 1)
        }
        var start = min(firstShown, selection)
        while start < selection && selection >= end(from: start) { start += 1 }
        firstShown = start
        return start..<end(from: start)
    }

    /// ``rows(heights:selection:room:)`` for `count` rows of one line each.
    public mutating func rows(count: Int, selection: Int, room: Int) -> Range<Int> {
        rows(heights: Array(repeating: 1, count: count), selection: selection, room: room)
    }
}
