/// One batch update for a list view: what happened to the sections (one per item) and, where
/// a section controller could tell, to the rows inside a changed section.
///
/// Index spaces follow batch-update rules: `sectionDeletes` and each move's `from` are
/// positions before the update; `sectionInserts` and each move's `to` are positions after.
/// A reloaded section (its item's content changed) may also have moved; its content must be
/// read again after the structural changes. See `applySections(to:inserted:reloaded:)`.
public struct ListUpdatePlan: Sendable, Equatable, CustomStringConvertible {
    /// Row-level changes inside one reloaded section, in the same index spaces as the plan.
    public struct RowChanges: Sendable, Equatable, CustomStringConvertible {
        /// The section's row count before the update.
        public var oldRowCount: Int
        /// The section's row count after the update.
        public var newRowCount: Int
        /// Rows removed, by old index.
        public var deletes: [Int]
        /// Rows added, by new index.
        public var inserts: [Int]
        /// Rows that moved (old → new).
        public var moves: [ListDiffResult.Move]
        /// Rows whose content changed, by old index.
        public var reloads: [Int]

        /// Makes row changes; see the properties.
        public init(
            oldRowCount: Int, newRowCount: Int, deletes: [Int] = [], inserts: [Int] = [],
            moves: [ListDiffResult.Move] = [], reloads: [Int] = []
        ) {
            self.oldRowCount = oldRowCount
            self.newRowCount = newRowCount
            self.deletes = deletes
            self.inserts = inserts
            self.moves = moves
            self.reloads = reloads
        }

        /// The row changes a row diff describes.
        public init(_ diff: ListDiffResult) {
            self.init(
                oldRowCount: diff.oldCount, newRowCount: diff.newCount, deletes: diff.deletes,
                inserts: diff.inserts, moves: diff.moves, reloads: diff.updates)
        }

        /// A one-line summary, for logs and test failures.
        public var description: String {
            "rows \(oldRowCount)→\(newRowCount): -\(deletes) +\(inserts) ~\(moves) ↻\(reloads)"
        }
    }

    /// A section whose item's content changed.
    public struct SectionReload: Sendable, Equatable, CustomStringConvertible {
        /// The section's position before the update.
        public var from: Int
        /// The section's position after the update.
        public var to: Int
        /// The row-level changes, or nil to reload every row of the section.
        public var rows: RowChanges?

        /// Makes a reload of the section at `from` (before) / `to` (after).
        public init(from: Int, to: Int, rows: RowChanges? = nil) {
            self.from = from
            self.to = to
            self.rows = rows
        }

        /// A one-line summary, for logs and test failures.
        public var description: String {
            "\(from)→\(to)" + (rows.map { " (\($0))" } ?? "")
        }
    }

    /// The number of sections before the update.
    public var oldSectionCount: Int
    /// The number of sections after the update.
    public var newSectionCount: Int
    /// Sections removed, by old position, ascending.
    public var sectionDeletes: [Int]
    /// Sections added, by new position, ascending.
    public var sectionInserts: [Int]
    /// Sections that moved beyond what inserts and deletes explain.
    public var sectionMoves: [ListDiffResult.Move]
    /// Sections whose item's content changed.
    public var sectionReloads: [SectionReload]

    /// Makes a plan; see the properties.
    public init(
        oldSectionCount: Int, newSectionCount: Int, sectionDeletes: [Int] = [], sectionInserts: [Int] = [],
        sectionMoves: [ListDiffResult.Move] = [], sectionReloads: [SectionReload] = []
    ) {
        self.oldSectionCount = oldSectionCount
        self.newSectionCount = newSectionCount
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.sectionReloads = sectionReloads
    }

    /// Whether the plan changes nothing.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
    }

    /// A one-line summary, for logs and test failures.
    public var description: String {
        "ListUpdatePlan(\(oldSectionCount) → \(newSectionCount) sections: delete \(sectionDeletes), "
            + "insert \(sectionInserts), move \(sectionMoves), reload \(sectionReloads))"
    }
}
