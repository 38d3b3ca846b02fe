/// A row's layout as computed outside the list view (by the layout cache, off the UI
/// actor): how many lines it takes at the list's content width, and whether it can be
/// selected.
public struct ListRowLayout: Hashable, Sendable {
    /// Lines the row takes; at least 1 (smaller values count as 1).
    public var height: Int
    /// Whether selection can rest on this row (headers and separators usually cannot).
    public var isSelectable: Bool

    /// Makes a layout of `height` lines.
    @inlinable
    public init(height: Int, isSelectable: Bool = true) {
        self.height = height
        self.isSelectable = isSelectable
    }
}
