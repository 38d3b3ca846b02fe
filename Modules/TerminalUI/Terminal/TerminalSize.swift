/// A terminal's size in cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    /// Columns (cells per line).
    public var columns: Int
    /// Lines.
    public var rows: Int

    /// Makes a size of `columns` × `rows`.
    @inlinable
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The conventional 80 × 24.
    public static let standard = TerminalSize(columns: 80, rows: 24)

    /// `80x24`.
    public var description: String { "\(columns)x\(rows)" }
}
