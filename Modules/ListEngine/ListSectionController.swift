/// Owns one item's rows in a list: its layout, and what happens when the item changes, a row
/// is selected, or the item nears the screen.
///
/// One controller serves one item for as long as the item (by identity) stays in the list.
/// Its `layout` is the pure, `Sendable` part (row count, heights, content); the controller
/// itself lives on the main actor and may keep state. Everything but `layout` has a default.
///
/// ```swift
/// final class PhotoController: ListSectionController {
///     let layout = PhotoLayout()
///     func didSelect(row: Int) { openViewer() }
/// }
/// ```
@MainActor
public protocol ListSectionController<Row>: AnyObject {
    /// The model type the controller shows.
    associatedtype Model: ListDiffable & Sendable
    /// The row content the list view draws.
    associatedtype Row
    /// The pure half: row count, heights and content of a model.
    associatedtype Layout: ListSectionLayout where Layout.Model == Model, Layout.Row == Row

    /// The layout the adapter uses for this controller's item (read after each update).
    var layout: Layout { get }

    /// The controller's item changed: called once with the first model, then whenever the
    /// item's content changes (not when it is merely moved).
    func didUpdate(to model: Model)

    /// The user selected `row` of this item.
    func didSelect(row: Int)

    /// The item came within the adapter's working range of the visible items: a good time to
    /// prefetch what its rows will show.
    func didEnterWorkingRange()

    /// The item left the working range (or the list).
    func didExitWorkingRange()

    /// The row changes from `old` to `new`, when the controller can tell; nil reloads the
    /// whole section. The result must describe rows counted by `layout.rowCount(for:)`:
    /// typically `ListDiff.diff(old: rows(of: old), new: rows(of: new))`.
    func rowChanges(from old: Model, to new: Model) -> ListDiffResult?
}

extension ListSectionController {
    /// Does nothing.
    public func didUpdate(to model: Model) {}
    /// Does nothing.
    public func didSelect(row: Int) {}
    /// Does nothing.
    public func didEnterWorkingRange() {}
    /// Does nothing.
    public func didExitWorkingRange() {}
    /// Nil: the whole section reloads.
    public func rowChanges(from old: Model, to new: Model) -> ListDiffResult? { nil }
}
