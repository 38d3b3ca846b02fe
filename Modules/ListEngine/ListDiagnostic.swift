/// Something a `ListAdapter` noticed and recovered from, instead of crashing: each says what
/// went wrong, where, and how to fix it.
public enum ListDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// No section controller claimed an item; it is shown with a one-line fallback row.
    case unclaimedItem(AnyListItem.Identifier, summary: String)
    /// The data source returned a controller whose model type is not the item's.
    case controllerModelMismatch(AnyListItem.Identifier, controller: String, expectedModel: String)
    /// The data source returned duplicate identifiers; the first of each was kept.
    case duplicateIdentifiers([AnyListItem.Identifier], droppedCount: Int)
    /// After an update the view's row count differed from the data's; the view was reloaded.
    case rowCountMismatch(viewRows: Int, dataSourceRows: Int)
    /// A controller's row changes did not fit its row counts; the whole section was reloaded.
    case invalidRowChanges(AnyListItem.Identifier, changes: ListUpdatePlan.RowChanges)

    /// A one-line summary, for logs and test failures.
    public var description: String {
        switch self {
        case .unclaimedItem(let identifier, let summary):
            return "ListAdapter: no section controller claims item \(identifier) ('\(summary)'); "
                + "it is shown as a one-line fallback row. Return a controller for its type from "
                + "sectionController(for:)."
        case .controllerModelMismatch(let identifier, let controller, let expectedModel):
            return "ListAdapter: the section controller \(controller) returned for item \(identifier) "
                + "shows models of type '\(expectedModel)'; the item is shown as a fallback row. Return a "
                + "controller whose Model is the item's type."
        case .duplicateIdentifiers(let identifiers, let droppedCount):
            let names = identifiers.map(\.description).joined(separator: ", ")
            return "ListAdapter: the data source returned duplicate identifiers \(names); kept the first "
                + "of each and dropped \(droppedCount) item\(droppedCount == 1 ? "" : "s"). Give every item "
                + "in one list a distinct diffIdentifier (key list entries, not the media they show)."
        case .rowCountMismatch(let viewRows, let dataSourceRows):
            return "ListAdapter: after applying an update the view shows \(viewRows) rows but the data "
                + "source has \(dataSourceRows); the view was reloaded. A section's row count changed "
                + "without its item changing (make rowCount(for:) depend on the model alone), or the view "
                + "applied the plan incorrectly."
        case .invalidRowChanges(let identifier, let changes):
            return "ListAdapter: the row changes for item \(identifier) (\(changes)) do not fit its row "
                + "counts; the whole section was reloaded. Return a diff over the same rows "
                + "rowCount(for:) counts, for example ListDiff.diff(old: oldRows, new: newRows)."
        }
    }
}
