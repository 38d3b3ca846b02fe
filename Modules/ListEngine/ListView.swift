/// A view that shows a list's rows and applies the adapter's update plans.
///
/// The adapter drives it: after each update it calls `apply(_:from:)` with one plan; the view
/// updates its own model of the sections (`ListUpdatePlan.applySections` helps), then reads
/// heights and content of the rows it shows from `source`. `rowCount` must be the view's own
/// count, so the adapter can check it against the data and recover when they disagree.
@MainActor
public protocol ListView<Row>: AnyObject {
    /// The row content the view draws.
    associatedtype Row: ListPlainRow

    /// The width, in columns, rows are laid out for.
    var width: Int { get }

    /// The number of rows the view currently shows, by its own count.
    var rowCount: Int { get }

    /// Applies one batch update, then shows rows from `source`.
    func apply(_ plan: ListUpdatePlan, from source: any ListRowSource<Row>)

    /// Forgets everything shown and shows `source` from scratch.
    func reloadAll(from source: any ListRowSource<Row>)
}
