/// The state and logic of a `ListAdapter`, apart from its view's type: sections, versions,
/// row positions, the working range and diagnostics. Not generic, so it is compiled once,
/// fully optimized, whatever view an app uses.
@MainActor
final class ListAdapterCore {
    struct Section {
        var item: AnyListItem
        var version: Int
        let binding: SectionBinding
        var rowCount: Int
    }

    /// An update computed but not yet shown.
    struct PendingUpdate {
        let generation: Int
        let items: [AnyListItem]
        let sections: [Section]
        let plan: ListUpdatePlan
        /// New positions of sections whose controller must hear `didUpdate(to:)`.
        let notify: [Int]
        let removedIdentifiers: [AnyListItem.Identifier]
        let diagnostics: [ListDiagnostic]
    }

    let layoutCache: ListLayoutCache
    let workingRangeSize: Int
    let diagnosticLimit: Int
    private(set) var diagnostics: [ListDiagnostic] = []
    var onDiagnostic: ((ListDiagnostic) -> Void)?

    private(set) var sections: [Section] = []
    private(set) var shownItems: [AnyListItem] = []
    /// rowStarts[s] is the first row of section s counted across sections; the last entry is
    /// the total.
    private(set) var rowStarts: [Int] = [0]
    private(set) var generation = 0
    private var nextVersion = 0
    private var visibleSections: Range<Int> = 0..<0
    private var inWorkingRange: [SectionBinding] = []

    init(layoutCache: ListLayoutCache, workingRangeSize: Int, diagnosticLimit: Int) {
        self.layoutCache = layoutCache
        self.workingRangeSize = Swift.max(0, workingRangeSize)
        self.diagnosticLimit = diagnosticLimit
    }

    var totalRowCount: Int { rowStarts.last ?? 0 }

    func removeAllDiagnostics() { diagnostics.removeAll() }

    func record(_ diagnostic: ListDiagnostic) {
        diagnostics.append(diagnostic)
        if diagnostics.count > diagnosticLimit {
            diagnostics.removeFirst(diagnostics.count - diagnosticLimit)
        }
        onDiagnostic?(diagnostic)
    }

    // MARK: Updates

    /// The items with the first of each identifier kept, and a diagnostic naming duplicates.
    func deduplicated(_ items: [AnyListItem]) -> ([AnyListItem], ListDiagnostic?) {
        var seen = Set<AnyListItem.Identifier>(minimumCapacity: items.count)
        var kept: [AnyListItem] = []
        kept.reserveCapacity(items.count)
        var duplicated: [AnyListItem.Identifier] = []
        var duplicatedSet = Set<AnyListItem.Identifier>()
        for item in items {
            let identifier = item.diffIdentifier
            if seen.insert(identifier).inserted {
                kept.append(item)
            } else if duplicatedSet.insert(identifier).inserted {
                duplicated.append(identifier)
            }
        }
        guard !duplicated.isEmpty else { return (kept, nil) }
        return (kept, .duplicateIdentifiers(duplicated, droppedCount: items.count - kept.count))
    }

    /// Computes the next state and its plan without showing it. `makeBinding` makes the
    /// binding of a new item (adding any diagnostic).
    func makePendingUpdate(
        from fetched: [AnyListItem], reusingControllers: Bool,
        makeBinding: (AnyListItem, inout [ListDiagnostic]) -> SectionBinding
    ) -> PendingUpdate {
        let (items, duplicates) = deduplicated(fetched)
        var diagnostics = duplicates.map { [$0] } ?? []
        let (diff, matches) = ListDiff.diffAndMatches(old: shownItems, new: items)
        var changed = [Bool](repeating: false, count: shownItems.count)
        for index in diff.updates { changed[index] = true }

        var newSections: [Section] = []
        newSections.reserveCapacity(items.count)
        var notify: [Int] = []
        var reloads: [ListUpdatePlan.SectionReload] = []
        for (position, item) in items.enumerated() {
            let oldPosition = matches[position]
            guard reusingControllers, oldPosition >= 0 else {
                let binding = makeBinding(item, &diagnostics)
                newSections.append(
                    Section(
                        item: item, version: item.contentVersion ?? nextVersion, binding: binding,
                        rowCount: binding.layout.rowCount(item)))
                nextVersion += 1
                notify.append(position)
                continue
            }
            var section = sections[oldPosition]
            let oldItem = section.item
            section.item = item
            if changed[oldPosition] {
                let oldRowCount = section.rowCount
                section.binding.refreshLayout()
                section.rowCount = section.binding.layout.rowCount(item)
                section.version = item.contentVersion ?? nextVersion
                nextVersion += 1
                var rows: ListUpdatePlan.RowChanges?
                if let rowDiff = section.binding.rowChanges(oldItem, item) {
                    let changes = ListUpdatePlan.RowChanges(rowDiff)
                    if changes.oldRowCount == oldRowCount && changes.newRowCount == section.rowCount
                        && changes.isConsistent
                    {
                        rows = changes
                    } else {
                        diagnostics.append(.invalidRowChanges(item.diffIdentifier, changes: changes))
                    }
                }
                reloads.append(ListUpdatePlan.SectionReload(from: oldPosition, to: position, rows: rows))
                notify.append(position)
            } else {
                // Counted again: a layout whose count changed without its item changing shows
                // up in the row-count check rather than being hidden here.
                section.rowCount = section.binding.layout.rowCount(item)
            }
            newSections.append(section)
        }
        let plan = ListUpdatePlan(
            oldSectionCount: sections.count, newSectionCount: items.count, sectionDeletes: diff.deletes,
            sectionInserts: diff.inserts, sectionMoves: diff.moves, sectionReloads: reloads)
        return PendingUpdate(
            generation: generation, items: items, sections: newSections, plan: plan, notify: notify,
            removedIdentifiers: diff.deletes.map { shownItems[$0].diffIdentifier }, diagnostics: diagnostics)
    }

    /// Makes a pending update the current state: controllers hear about their items and the
    /// diagnostics are recorded. The caller then shows it in the view.
    func commit(_ pending: PendingUpdate) {
        generation += 1
        sections = pending.sections
        shownItems = pending.items
        var starts: [Int] = []
        starts.reserveCapacity(sections.count + 1)
        var total = 0
        for section in sections {
            starts.append(total)
            total += section.rowCount
        }
        starts.append(total)
        rowStarts = starts
        layoutCache.removeHeights(for: pending.removedIdentifiers)
        for position in pending.notify {
            sections[position].binding.didUpdate(sections[position].item)
        }
        for diagnostic in pending.diagnostics { record(diagnostic) }
    }

    /// Layout requests for measuring `sections` ahead of time.
    func layoutRequests(for sections: [Section]) -> [ListLayoutCache.Request] {
        sections.map { section in
            let layout = section.binding.layout
            let item = section.item
            return ListLayoutCache.Request(identifier: item.diffIdentifier, version: section.version) {
                width in
                layout.heights(of: item, width: width)
            }
        }
    }

    // MARK: Rows

    func rowCount(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].rowCount : 0
    }

    func contains(_ index: ListIndexPath) -> Bool {
        sections.indices.contains(index.section) && (0..<sections[index.section].rowCount).contains(index.row)
    }

    func height(at index: ListIndexPath, width: Int) -> Int {
        guard contains(index) else { return 0 }
        let section = sections[index.section]
        let key = ListLayoutCache.Key(
            identifier: section.item.diffIdentifier, version: section.version, width: width)
        let heights = layoutCache.heights(for: key) {
            section.binding.layout.heights(of: section.item, width: width)
        }
        return heights.indices.contains(index.row) ? heights[index.row] : 0
    }

    func content(at index: ListIndexPath, width: Int) -> Any? {
        guard contains(index) else { return nil }
        let section = sections[index.section]
        return section.binding.layout.content(index.row, section.item, width)
    }

    func indexPath(forRow row: Int) -> ListIndexPath? {
        guard row >= 0, row < totalRowCount else { return nil }
        // The last section starting at or before `row`.
        var low = 0
        var high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if rowStarts[middle] <= row { low = middle } else { high = middle - 1 }
        }
        return ListIndexPath(section: low, row: row - rowStarts[low])
    }

    func selectRow(at index: ListIndexPath) {
        guard contains(index) else { return }
        sections[index.section].binding.didSelect(index.row)
    }

    // MARK: Working range

    func visibleSectionsDidChange(_ sections: Range<Int>) {
        visibleSections = sections
        updateWorkingRange()
    }

    /// Brings the working range up to date with the visible sections and the current items.
    /// Controllers of removed items that were in range hear `didExitWorkingRange()`.
    func updateWorkingRange() {
        let count = sections.count
        let visible = visibleSections.clamped(to: 0..<count)
        var range: Range<Int> = 0..<0
        if !visible.isEmpty {
            range =
                Swift.max(
                    0, visible.lowerBound - workingRangeSize)..<Swift.min(
                    count, visible.upperBound + workingRangeSize)
        }
        let now = range.map { sections[$0].binding }
        let nowSet = Set(now.map(ObjectIdentifier.init))
        let beforeSet = Set(inWorkingRange.map(ObjectIdentifier.init))
        let left = inWorkingRange.filter { !nowSet.contains(ObjectIdentifier($0)) }
        let entered = now.filter { !beforeSet.contains(ObjectIdentifier($0)) }
        inWorkingRange = now
        for binding in left { binding.didExitWorkingRange() }
        for binding in entered { binding.didEnterWorkingRange() }
    }
}
