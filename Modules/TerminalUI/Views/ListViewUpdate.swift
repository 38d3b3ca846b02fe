/// One batch of changes to a list's sections and rows, applied at once (batch-update
/// semantics).
///
/// Old indexes (before the update): `deletedSections`, `reloadedSections`, each move's
/// `from`, and `RowChanges.section`. New indexes (after): `insertedSections`, each move's
/// `to`. Sections that are neither deleted nor moved keep their relative order and fill the
/// new indexes that inserts and moves leave free. This is the shape of the list engine's
/// update plan, so mapping one to the other is direct.
///
/// ```swift
/// // Two new posts on top, the post that was third is gone, the first one was edited.
/// let update = ListViewUpdate(deletedSections: [2], insertedSections: [0, 1], reloadedSections: [0])
/// listView.apply(update, layouts: newLayouts)
/// ```
public struct ListViewUpdate: Hashable, Sendable {
    /// A section or row that moved: its index before and after.
    public struct Move: Hashable, Sendable {
        /// The old index.
        public var from: Int
        /// The new index.
        public var to: Int

        /// Makes a move from old index `from` to new index `to`.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Row-level changes inside one section that stays (is not deleted, inserted or
    /// reloaded), in batch-update index spaces like the sections'; its other rows keep their
    /// rendered content.
    public struct RowChanges: Hashable, Sendable {
        /// The section's old index.
        public var section: Int
        /// Old row indexes removed.
        public var deletedRows: [Int]
        /// New row indexes added.
        public var insertedRows: [Int]
        /// Rows that changed position (old → new).
        public var movedRows: [Move]
        /// Old row indexes whose content changed.
        public var reloadedRows: [Int]

        /// Makes the row changes of old section `section`.
        public init(
            section: Int, deletedRows: [Int] = [], insertedRows: [Int] = [], movedRows: [Move] = [],
            reloadedRows: [Int] = []
        ) {
            self.section = section
            self.deletedRows = deletedRows
            self.insertedRows = insertedRows
            self.movedRows = movedRows
            self.reloadedRows = reloadedRows
        }
    }

    /// Old indexes of sections removed.
    public var deletedSections: [Int]
    /// New indexes of sections added.
    public var insertedSections: [Int]
    /// Sections that changed position (beyond what inserts and deletes explain).
    public var movedSections: [Move]
    /// Old indexes of sections whose content changed: all their rows render again.
    public var reloadedSections: [Int]
    /// Finer changes inside sections that are otherwise kept.
    public var rowChanges: [RowChanges]

    /// Makes an update; everything defaults to "no change".
    public init(
        deletedSections: [Int] = [], insertedSections: [Int] = [], movedSections: [Move] = [],
        reloadedSections: [Int] = [], rowChanges: [RowChanges] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.movedSections = movedSections
        self.reloadedSections = reloadedSections
        self.rowChanges = rowChanges
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && reloadedSections.isEmpty
            && rowChanges.isEmpty
    }
}
