/// A row of a list: the section (one item) and the row within it.
public struct ListIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section's index: the item's position in the list.
    public var section: Int
    /// The row's index within the section.
    public var row: Int

    /// Makes the path of `row` in `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then row.
    public static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// A one-line summary, for logs and test failures.
    public var description: String { "\(section).\(row)" }
}
