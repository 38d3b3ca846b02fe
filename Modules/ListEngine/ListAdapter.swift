/// Turns a data source's items into a list view's rows, one section controller per item, and
/// keeps the view in step with one update plan per change.
///
/// `performUpdates()` asks the data source again, drops duplicate identifiers (keeping the
/// first, with a diagnostic), diffs against what is shown (`ListDiff`, O(n)), reuses the
/// controllers of items that stay, asks for controllers for new items (a fallback row for
/// items nobody claims), and hands the view one `ListUpdatePlan`. Then it checks that the
/// view's row count matches the data's; if not, it records a diagnostic and reloads the view.
///
/// Row heights come from a `ListLayoutCache` keyed by (identifier, content version, width);
/// `performUpdatesWithPreparedLayout()` computes the missing ones on background tasks before
/// the view needs them. Controllers within `workingRangeSize` items of the visible ones are
/// told when they enter and leave that range.
///
/// ```swift
/// let adapter = ListAdapter(view: listView, workingRangeSize: 2)
/// adapter.dataSource = feedScreen   // held weakly
/// adapter.performUpdates()
/// ```
///
/// The adapter holds its view strongly and its data source weakly; the view should hold the
/// row source it is handed weakly.
@MainActor
public final class ListAdapter<View: ListView>: ListRowSource {
    /// The row content the view draws.
    public typealias Row = View.Row

    /// The view the adapter drives.
    public let view: View
    /// Supplies items and section controllers (held weakly).
    public weak var dataSource: (any ListAdapterDataSource<Row>)?
    let core: ListAdapterCore

    /// Makes an adapter driving `view`. `workingRangeSize` is how many items beyond the
    /// visible ones count as about to be seen.
    public init(view: View, workingRangeSize: Int = 2, layoutCache: ListLayoutCache = ListLayoutCache()) {
        self.view = view
        core = ListAdapterCore(
            layoutCache: layoutCache, workingRangeSize: workingRangeSize, diagnosticLimit: 256)
    }

    /// The row heights, shared with background layout tasks.
    public var layoutCache: ListLayoutCache { core.layoutCache }

    /// How many items beyond the visible ones count as about to be seen.
    public var workingRangeSize: Int { core.workingRangeSize }

    /// What the adapter noticed and recovered from, oldest first (the most recent 256).
    public var diagnostics: [ListDiagnostic] { core.diagnostics }

    /// Called with each diagnostic as it is recorded.
    public var onDiagnostic: ((ListDiagnostic) -> Void)? {
        get { core.onDiagnostic }
        set { core.onDiagnostic = newValue }
    }

    /// Forgets the recorded diagnostics.
    public func removeAllDiagnostics() { core.removeAllDiagnostics() }

    /// The items shown, in order.
    public var items: [AnyListItem] { core.shownItems }

    /// The controller of the item in `section`, or nil when out of range.
    public func sectionController(at section: Int) -> AnyObject? {
        core.sections.indices.contains(section) ? core.sections[section].binding.controller : nil
    }

    // MARK: Updates

    /// Asks the data source for its items, diffs them against what is shown and hands the view
    /// one update plan; returns the plan.
    ///
    /// Complexity: O(n) for n items, plus the data source's and controllers' work.
    @discardableResult
    public func performUpdates() -> ListUpdatePlan {
        let pending = makePendingUpdate(reusingControllers: true)
        show(pending, reloadingAll: false)
        return pending.plan
    }

    /// Like `performUpdates()`, but first measures the rows of new and changed items on
    /// background tasks (through `layoutCache`), so showing them reads only cached heights.
    /// If the list changed while measuring, the latest data is shown instead.
    @discardableResult
    public func performUpdatesWithPreparedLayout() async -> ListUpdatePlan {
        let pending = makePendingUpdate(reusingControllers: true)
        await core.layoutCache.prepare(core.layoutRequests(for: pending.sections), width: view.width)
        guard pending.generation == core.generation else { return performUpdates() }
        show(pending, reloadingAll: false)
        return pending.plan
    }

    /// Measures, on background tasks, the rows of every shown item not cached for the view's
    /// width (for example after a resize).
    public func prepareLayout() async {
        await core.layoutCache.prepare(core.layoutRequests(for: core.sections), width: view.width)
    }

    /// Rebuilds everything: new controllers for every item, and a full reload of the view.
    public func reloadData() {
        show(makePendingUpdate(reusingControllers: false), reloadingAll: true)
    }

    func makePendingUpdate(reusingControllers: Bool) -> ListAdapterCore.PendingUpdate {
        core.makePendingUpdate(
            from: dataSource?.listItems() ?? [], reusingControllers: reusingControllers,
            makeBinding: makeBinding)
    }

    /// A controller binding for a new item: the data source's controller, or a fallback one
    /// (with a diagnostic) when none claims it or the one returned takes another model type.
    func makeBinding(for item: AnyListItem, diagnostics: inout [ListDiagnostic]) -> SectionBinding {
        guard let controller = dataSource?.sectionController(for: item) else {
            diagnostics.append(.unclaimedItem(item.diffIdentifier, summary: item.description))
            return .fallback(rowType: Row.self)
        }
        switch SectionBinding.bind(controller, to: item) {
        case .success(let binding):
            return binding
        case .failure(let mismatch):
            diagnostics.append(
                .controllerModelMismatch(
                    item.diffIdentifier, controller: mismatch.controller,
                    expectedModel: mismatch.expectedModel))
            return .fallback(rowType: Row.self)
        }
    }

    /// Shows a pending update: the view applies its plan (or reloads), the row counts are
    /// checked, and the working range is brought up to date.
    func show(_ pending: ListAdapterCore.PendingUpdate, reloadingAll: Bool) {
        core.commit(pending)
        if reloadingAll {
            view.reloadAll(from: self)
        } else {
            view.apply(pending.plan, from: self)
        }
        let viewRows = view.rowCount
        if viewRows != core.totalRowCount {
            core.record(.rowCountMismatch(viewRows: viewRows, dataSourceRows: core.totalRowCount))
            view.reloadAll(from: self)
        }
        core.updateWorkingRange()
    }

    // MARK: ListRowSource

    /// The number of sections (one per item).
    public var sectionCount: Int { core.sections.count }

    /// The number of rows in all sections.
    public var totalRowCount: Int { core.totalRowCount }

    /// The number of rows in `section` (0 when out of range).
    public func rowCount(inSection section: Int) -> Int { core.rowCount(inSection: section) }

    /// The identity of the item in `section`, or nil when out of range.
    public func identifier(ofSection section: Int) -> AnyListItem.Identifier? {
        core.sections.indices.contains(section) ? core.sections[section].item.diffIdentifier : nil
    }

    /// The height in lines of the row at `index` for `width` columns, from the layout cache
    /// (measured on the spot, and counted as a miss, when not prepared); 0 when out of range.
    public func height(at index: ListIndexPath, width: Int) -> Int { core.height(at: index, width: width) }

    /// The content of the row at `index` for `width` columns (a blank row when out of range).
    public func row(at index: ListIndexPath, width: Int) -> Row {
        core.content(at: index, width: width) as? Row ?? Row(plainText: "", width: width)
    }

    /// The position of a row counted across sections, or nil when out of range.
    ///
    /// Complexity: O(log n) for n sections.
    public func indexPath(forRow row: Int) -> ListIndexPath? { core.indexPath(forRow: row) }

    /// The first row, counted across sections, of `section` (the total when past the end).
    public func firstRow(ofSection section: Int) -> Int {
        core.rowStarts[Swift.min(Swift.max(0, section), core.rowStarts.count - 1)]
    }

    /// The user selected the row at `index`: its controller hears `didSelect(row:)`. Ignored
    /// when out of range.
    public func selectRow(at index: ListIndexPath) { core.selectRow(at: index) }

    /// The view shows the sections in `sections`: controllers within `workingRangeSize`
    /// sections of them are told they entered the working range, and those no longer within
    /// it that they left, each once per transition.
    public func visibleSectionsDidChange(_ sections: Range<Int>) { core.visibleSectionsDidChange(sections) }
}
