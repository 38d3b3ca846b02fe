import ListEngine

/// A `ListView` for tests: applies each plan to its own model of the sections, the way a real
/// view must, records what it was asked to do, and draws rows as text on demand.
///
/// Its `rowCount` comes from its own model, so an adapter that hands it a wrong plan (or a
/// data source whose counts change behind the adapter's back) shows up as a mismatch. Faults
/// can be injected to test the adapter's recovery.
@MainActor
public final class RecordingListView<Row: ListPlainRow>: ListView {
    /// What the view was asked to do.
    public enum Event: Equatable, Sendable {
        case apply(ListUpdatePlan)
        case reloadAll
    }

    /// The width rows are laid out for.
    public var width: Int
    /// Everything the view was asked to do, in order.
    public private(set) var events: [Event] = []
    /// The view's own row count per section.
    public private(set) var sectionRowCounts: [Int] = []
    /// Plans that did not fit the view's model (a real view would fail on them).
    public private(set) var rejectedPlans: [ListUpdatePlan] = []
    /// The row source of the last update (held weakly, as a view should).
    public private(set) weak var source: (any ListRowSource<Row>)?
    /// Fault injection: the next applied plan loses its first inserted section.
    public var dropsNextInsertedSection = false

    /// Makes an empty view `width` columns wide.
    public init(width: Int = 40) {
        self.width = width
    }

    /// The number of rows by the view's own count.
    public var rowCount: Int { sectionRowCounts.reduce(0, +) }

    /// The plans applied, in order.
    public var appliedPlans: [ListUpdatePlan] {
        events.compactMap { if case .apply(let plan) = $0 { plan } else { nil } }
    }

    /// How many times the view was reloaded from scratch.
    public var reloadCount: Int { events.filter { $0 == .reloadAll }.count }

    /// Applies `plan` to the view's model of the sections.
    public func apply(_ plan: ListUpdatePlan, from source: any ListRowSource<Row>) {
        self.source = source
        events.append(.apply(plan))
        var rejected = false
        let updated = plan.applySections(
            to: sectionRowCounts, inserted: { source.rowCount(inSection: $0) },
            reloaded: { oldCount, reload in
                guard let rows = reload.rows else { return source.rowCount(inSection: reload.to) }
                guard rows.oldRowCount == oldCount, rows.isConsistent else {
                    rejected = true
                    return oldCount
                }
                return rows.newRowCount
            })
        guard var updated, !rejected else {
            rejectedPlans.append(plan)
            return
        }
        if dropsNextInsertedSection, let first = plan.sectionInserts.first {
            dropsNextInsertedSection = false
            updated.remove(at: first)
        }
        sectionRowCounts = updated
    }

    /// Rebuilds the view's model from `source`.
    public func reloadAll(from source: any ListRowSource<Row>) {
        self.source = source
        events.append(.reloadAll)
        sectionRowCounts = (0..<source.sectionCount).map { source.rowCount(inSection: $0) }
    }

    /// Reports that the view shows `sections` (as scrolling would).
    public func show(sections: Range<Int>) {
        source?.visibleSectionsDidChange(sections)
    }

    /// Selects a row (as a key press would).
    public func select(_ index: ListIndexPath) {
        source?.selectRow(at: index)
    }

    /// Every row's content, section by section, as the view's model counts them.
    public func renderedRows() -> [Row] {
        guard let source else { return [] }
        return sectionRowCounts.enumerated().flatMap { section, count in
            (0..<count).map { source.row(at: ListIndexPath(section: section, row: $0), width: width) }
        }
    }

    /// Every row's height in lines.
    public func renderedHeights() -> [Int] {
        guard let source else { return [] }
        return sectionRowCounts.enumerated().flatMap { section, count in
            (0..<count).map { source.height(at: ListIndexPath(section: section, row: $0), width: width) }
        }
    }

    /// Where the view's model and `source` disagree (empty when in step).
    public func mismatches() -> [String] {
        guard let source else { return sectionRowCounts.isEmpty ? [] : ["no source but \(rowCount) rows"] }
        var problems: [String] = []
        if sectionRowCounts.count != source.sectionCount {
            problems.append("view has \(sectionRowCounts.count) sections, source \(source.sectionCount)")
        }
        for (section, count) in sectionRowCounts.enumerated()
        where count != source.rowCount(inSection: section) {
            problems.append(
                "section \(section): view has \(count) rows, source \(source.rowCount(inSection: section))")
        }
        if rowCount != source.totalRowCount {
            problems.append("view has \(rowCount) rows, source \(source.totalRowCount)")
        }
        return problems
    }
}
