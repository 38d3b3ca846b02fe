/// Where a row is in a list: its section (one item) and its index among that item's rows.
public struct ListRowPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section: the item's index in the list.
    public var section: Int
    /// The row inside the section.
    public var row: Int

    /// Makes the path of row `row` of section `section`.
    @inlinable
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then row.
    public static func < (lhs: ListRowPath, rhs: ListRowPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `section.row`.
    public var description: String { "\(section).\(row)" }
}
