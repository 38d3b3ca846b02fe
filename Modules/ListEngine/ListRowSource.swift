/// What a list view reads its rows from, and reports visibility and selection to: the adapter.
@MainActor
public protocol ListRowSource<Row>: AnyObject {
    /// The row content.
    associatedtype Row

    /// The number of sections (one per item).
    var sectionCount: Int { get }

    /// The number of rows in all sections.
    var totalRowCount: Int { get }

    /// The number of rows in `section` (0 when out of range).
    func rowCount(inSection section: Int) -> Int

    /// The identity of the item in `section`, or nil when out of range.
    func identifier(ofSection section: Int) -> AnyListItem.Identifier?

    /// The height in lines of the row at `index` for `width` columns (0 when out of range).
    func height(at index: ListIndexPath, width: Int) -> Int

    /// The content of the row at `index` for `width` columns (a blank row when out of range).
    func row(at index: ListIndexPath, width: Int) -> Row

    /// The position of a row counted across sections, or nil when out of range.
    func indexPath(forRow row: Int) -> ListIndexPath?

    /// The view shows the sections in `sections`; updates the working range.
    func visibleSectionsDidChange(_ sections: Range<Int>)

    /// The user selected the row at `index`; ignored when out of range.
    func selectRow(at index: ListIndexPath)
}
