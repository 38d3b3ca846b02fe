/// What one `TerminalListView.draw` did: which viewport lines changed since the previous
/// draw, and how many rows had to be rendered (not taken from the cache).
public struct ListDrawStatistics: Hashable, Sendable {
    /// Viewport lines (0 at the list's top) whose content differs from the previous draw;
    /// every line when the list's rect or width changed.
    public var redrawnLines: [Int]
    /// Rows whose lines were asked of `rowRenderer` during this draw.
    public var renderedRows: Int

    /// Makes statistics.
    public init(redrawnLines: [Int], renderedRows: Int) {
        self.redrawnLines = redrawnLines
        self.renderedRows = renderedRows
    }

    /// How many lines changed.
    public var redrawnLineCount: Int { redrawnLines.count }
}
