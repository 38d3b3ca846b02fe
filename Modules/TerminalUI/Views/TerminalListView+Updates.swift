extension TerminalListView {
    /// Applies one batch update; `layouts` are the rows of every section after it.
    ///
    /// Kept rows keep their rendered lines (reloaded ones render again). The selection and
    /// the scroll anchor follow their rows: rows inserted or deleted above them change
    /// nothing on screen. A deleted selected or anchor row hands over to the next row that
    /// survives (else the previous one). O(sections + rows).
    ///
    /// Returns nil when the update applied as given. When it does not fit the current rows
    /// (indexes out of range, counts that do not add up), the list reloads from `layouts`
    /// instead, keeping what it can, and returns the issue.
    @discardableResult
    public func apply(_ update: ListViewUpdate, layouts: [[ListRowLayout]]) -> ListUpdateIssue? {
        let sectionMap: [Int?]
        do {
            sectionMap = try BatchIndexMapping.map(
                oldCount: sections.count, newCount: layouts.count, deletes: update.deletedSections,
                inserts: update.insertedSections, moves: update.movedSections.map { ($0.from, $0.to) },
                what: "section")
        } catch {
            reloadData(layouts: layouts)
            return error
        }
        let reloaded = Set(update.reloadedSections)
        if let bad = reloaded.first(where: { !sectionMap.indices.contains($0) || sectionMap[$0] == nil }) {
            reloadData(layouts: layouts)
            return ListUpdateIssue(
                message: "reloaded section \(bad) does not survive the update (deleted or out of range)")
        }

        // Row maps of sections with row-level changes (old row → new row).
        var rowMaps: [Int: [Int?]] = [:]
        for changes in update.rowChanges {
            guard sectionMap.indices.contains(changes.section), let newSection = sectionMap[changes.section],
                !reloaded.contains(changes.section)
            else { continue }
            do {
                let map = try BatchIndexMapping.map(
                    oldCount: sections[changes.section].rows.count, newCount: layouts[newSection].count,
                    deletes: changes.deletedRows, inserts: changes.insertedRows,
                    moves: changes.movedRows.map { ($0.from, $0.to) }, what: "row")
                rowMaps[changes.section] = map
            } catch {
                reloadData(layouts: layouts)
                return ListUpdateIssue(message: "section \(changes.section): \(error.message)")
            }
        }

        let oldSections = sections
        let oldSelection = selection
        let oldAnchor = anchor

        var newSections = layouts.map { SectionState(rows: $0.map { RowState(layout: $0, lines: nil) }) }
        for (old, target) in sectionMap.enumerated() {
            guard let target, !reloaded.contains(old) else { continue }
            let oldRows = oldSections[old].rows
            if let rowMap = rowMaps[old] {
                let reloadedRows = Set(update.rowChanges.first { $0.section == old }?.reloadedRows ?? [])
                for (oldRow, newRow) in rowMap.enumerated() {
                    guard let newRow, !reloadedRows.contains(oldRow) else { continue }
                    carry(oldRows[oldRow], into: &newSections[target].rows[newRow])
                }
            } else if oldRows.count == newSections[target].rows.count {
                for row in oldRows.indices { carry(oldRows[row], into: &newSections[target].rows[row]) }
            }
        }
        sections = newSections
        rebuildIndex()

        selection = oldSelection.flatMap {
            remap($0, sectionMap: sectionMap, rowMaps: rowMaps, in: oldSections)
        }
        .flatMap(clampedSelectable)
        if let oldAnchor {
            let mapped = remap(oldAnchor, sectionMap: sectionMap, rowMaps: rowMaps, in: oldSections)
            let rowSurvived =
                sectionMap[oldAnchor.section] != nil
                && rowMaps[oldAnchor.section].map { $0[oldAnchor.row] != nil } ?? true
            if let mapped, rowSurvived, layout(of: mapped) != nil {
                anchor = mapped
            } else {
                // The anchor row is gone: its successor takes the top, from its first line.
                anchor = mapped.flatMap(clamped)
                anchorOffset = 0
            }
        }
        if anchor == nil { anchorOffset = 0 }
        clampScroll()
        return nil
    }

    /// Keeps a row's rendered lines when its layout did not change.
    private func carry(_ old: RowState, into new: inout RowState) {
        if old.layout == new.layout { new.lines = old.lines }
    }

    /// Where the row at old `path` is after the update; for a deleted row, the first row
    /// after it that survives (in the old order), else the last one before it.
    private func remap(
        _ path: ListRowPath, sectionMap: [Int?], rowMaps: [Int: [Int?]], in oldSections: [SectionState]
    ) -> ListRowPath? {
        guard sectionMap.indices.contains(path.section) else { return nil }
        if let newSection = sectionMap[path.section] {
            guard let rowMap = rowMaps[path.section] else {
                return ListRowPath(section: newSection, row: path.row)
            }
            if rowMap.indices.contains(path.row), let newRow = rowMap[path.row] {
                return ListRowPath(section: newSection, row: newRow)
            }
            if let next = rowMap.indices.first(where: { $0 > path.row && rowMap[$0] != nil }),
                let row = rowMap[next]
            {
                return ListRowPath(section: newSection, row: row)
            }
            if let previous = rowMap.indices.last(where: { $0 < path.row && rowMap[$0] != nil }),
                let row = rowMap[previous]
            {
                return ListRowPath(section: newSection, row: row)
            }
            // Every row of the section is gone: fall through to the neighbouring sections.
        }
        for old in (path.section + 1)..<max(sectionMap.count, path.section + 1) {
            if let section = sectionMap[old], numberOfRows(inSection: section) > 0 {
                return ListRowPath(section: section, row: 0)
            }
        }
        for old in stride(from: path.section - 1, through: 0, by: -1) {
            if let section = sectionMap[old], numberOfRows(inSection: section) > 0 {
                return ListRowPath(section: section, row: numberOfRows(inSection: section) - 1)
            }
        }
        return nil
    }
}
