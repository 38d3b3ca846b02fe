extension ListUpdatePlan {
    /// A view's per-section values (in old order) after the plan: deleted sections dropped,
    /// inserted ones made by `inserted(newPosition)`, moved ones carried along, and reloaded
    /// ones passed through `reloaded(value, reload)` at their new position. Nil when the plan
    /// does not fit `sections` (wrong count, an index out of range or used twice).
    ///
    /// Complexity: O(old + new sections).
    public func applySections<Section>(
        to sections: [Section], inserted: (Int) -> Section, reloaded: (Section, SectionReload) -> Section
    ) -> [Section]? {
        guard sections.count == oldSectionCount,
            var result = BatchUpdate.apply(
                to: sections, newCount: newSectionCount, deletes: sectionDeletes, inserts: sectionInserts,
                moves: sectionMoves, inserted: inserted)
        else { return nil }
        for reload in sectionReloads {
            guard result.indices.contains(reload.to) else { return nil }
            result[reload.to] = reloaded(result[reload.to], reload)
        }
        return result
    }
}

extension ListUpdatePlan.RowChanges {
    /// A section's per-row values (in old order) after these changes: like
    /// `ListUpdatePlan.applySections`, with reloaded rows passed through
    /// `reloaded(value, newIndex)`. Nil when the changes do not fit `rows`.
    ///
    /// Complexity: O(old + new rows).
    public func applyRows<Value>(
        to rows: [Value], inserted: (Int) -> Value, reloaded: (Value, Int) -> Value
    ) -> [Value]? {
        guard rows.count == oldRowCount,
            var result = BatchUpdate.apply(
                to: rows, newCount: newRowCount, deletes: deletes, inserts: inserts, moves: moves,
                inserted: inserted),
            let newPositions = BatchUpdate.newPositions(
                oldCount: oldRowCount, newCount: newRowCount, deletes: deletes, inserts: inserts, moves: moves
            )
        else { return nil }
        for old in reloads {
            guard rows.indices.contains(old), let position = newPositions[old] else { return nil }
            result[position] = reloaded(result[position], position)
        }
        return result
    }

    /// Whether the changes fit a section going from `oldRowCount` to `newRowCount` rows.
    public var isConsistent: Bool {
        BatchUpdate.newPositions(
            oldCount: oldRowCount, newCount: newRowCount, deletes: deletes, inserts: inserts, moves: moves)
            != nil && reloads.allSatisfy { (0..<oldRowCount).contains($0) }
    }
}
