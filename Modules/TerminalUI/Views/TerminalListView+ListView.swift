import ListEngine

/// The list engine drives the terminal list view: `ListAdapter<TerminalListView>` hands it
/// update plans and serves row heights (from its layout cache) and row content.
///
/// ```swift
/// let list = TerminalListView(width: 80, height: 22)
/// let adapter = ListAdapter(view: list, workingRangeSize: 3)
/// adapter.dataSource = feed
/// await adapter.performUpdatesWithPreparedLayout()
/// ```
extension TerminalListView: ListView {
    /// Rows are `StyledRow`s: their lines at the content width.
    public typealias Row = StyledRow

    /// The width rows are laid out for: the view's width minus the selection gutter.
    public var width: Int { contentWidth }

    /// The number of rows the view shows, by its own count.
    public var rowCount: Int { totalRowCount }

    /// Applies `plan` (mapped to a `ListViewUpdate`), with every row's height read from
    /// `source` for the content width, and shows rows from `source` from now on. A plan that
    /// does not fit reloads instead; the adapter then sees the row counts and recovers.
    /// O(sections + rows).
    public func apply(_ plan: ListUpdatePlan, from source: any ListRowSource<StyledRow>) {
        connect(to: source)
        apply(ListViewUpdate(plan), layouts: Self.layouts(from: source, width: contentWidth))
    }

    /// Forgets every rendered row and shows `source` from scratch. O(sections + rows).
    public func reloadAll(from source: any ListRowSource<StyledRow>) {
        connect(to: source)
        reloadData(layouts: Self.layouts(from: source, width: contentWidth))
    }

    /// Reads the heights again from `source` for the current content width (after a resize,
    /// once the layout cache has them), keeping the scroll anchor. O(sections + rows).
    public func relayout(from source: any ListRowSource<StyledRow>) {
        connect(to: source)
        updateLayouts(Self.layouts(from: source, width: contentWidth))
    }

    /// Renders rows from `source`, and reports visibility and activation back to it; the source
    /// is held weakly (the adapter holds the view).
    private func connect(to source: any ListRowSource<StyledRow>) {
        rowRenderer = { [weak source] path, width in
            source?.row(at: ListIndexPath(section: path.section, row: path.row), width: width).lines ?? []
        }
        onVisibleSectionsChange = { [weak source] sections in source?.visibleSectionsDidChange(sections) }
        onActivate = { [weak source] path in
            source?.selectRow(at: ListIndexPath(section: path.section, row: path.row))
        }
    }

    private static func layouts(from source: any ListRowSource<StyledRow>, width: Int) -> [[ListRowLayout]] {
        (0..<source.sectionCount).map { section in
            (0..<source.rowCount(inSection: section)).map { row in
                ListRowLayout(
                    height: max(source.height(at: ListIndexPath(section: section, row: row), width: width), 1)
                )
            }
        }
    }
}

extension ListViewUpdate {
    /// The list engine's plan in the list view's terms: section deletes, inserts and moves as
    /// they are; a reload without row changes reloads the section; one with row changes
    /// becomes `RowChanges` of that section.
    public init(_ plan: ListUpdatePlan) {
        var reloaded: [Int] = []
        var rowChanges: [RowChanges] = []
        for reload in plan.sectionReloads {
            guard let rows = reload.rows else {
                reloaded.append(reload.from)
                continue
            }
            rowChanges.append(
                RowChanges(
                    section: reload.from, deletedRows: rows.deletes, insertedRows: rows.inserts,
                    movedRows: rows.moves.map { Move(from: $0.from, to: $0.to) }, reloadedRows: rows.reloads))
        }
        self.init(
            deletedSections: plan.sectionDeletes, insertedSections: plan.sectionInserts,
            movedSections: plan.sectionMoves.map { Move(from: $0.from, to: $0.to) },
            reloadedSections: reloaded,
            rowChanges: rowChanges)
    }
}
