import ListEngine
import ListEngineTesting
import Testing

/// A sample list: a data source, a recording view 40 columns wide, and an adapter.
@MainActor
struct SampleListFixture {
    let dataSource: SampleDataSource
    let view = RecordingListView<String>(width: 40)
    let adapter: ListAdapter<RecordingListView<String>>

    init(_ items: [AnyListItem], workingRangeSize: Int = 1) {
        dataSource = SampleDataSource(items)
        adapter = ListAdapter(view: view, workingRangeSize: workingRangeSize)
        adapter.dataSource = dataSource
    }

    /// Sets the items and performs an update.
    @discardableResult
    func show(_ items: [AnyListItem]) -> ListUpdatePlan {
        dataSource.items = items
        return adapter.performUpdates()
    }
}

func photo(_ id: Int, _ caption: String = "") -> AnyListItem {
    AnyListItem(SamplePhoto(id: id, caption: caption))
}
func note(_ id: String, _ texts: [String]) -> AnyListItem { AnyListItem(SampleNote(id: id, texts: texts)) }

@Suite @MainActor struct ListAdapterTests {
    @Test func performUpdatesWithTwoModelTypes_showsEachControllersRows() {
        let list = SampleListFixture([])
        let plan = list.show([photo(1, "sunset"), note("a", ["first", "second"]), photo(2, "cat")])

        #expect(plan.sectionInserts == [0, 1, 2])
        #expect(list.view.renderedRows() == ["[photo 1]", "sunset", "first", "second", "[photo 2]", "cat"])
        #expect(list.view.mismatches().isEmpty)
        #expect(list.adapter.totalRowCount == 6)
        #expect(list.adapter.diagnostics.isEmpty)
        #expect(
            list.dataSource.log.take() == [
                "photo 1: update 'sunset'", "note a: update 2 lines", "photo 2: update 'cat'",
            ])
    }

    @Test func performUpdatesAfterChanges_handsTheViewOnePlanAndReusesControllers() {
        let list = SampleListFixture([])
        list.show([photo(1, "a"), photo(2, "b"), photo(3, "c"), photo(4, "d")])
        let kept = list.adapter.sectionController(at: 1)
        _ = list.dataSource.log.take()

        // Delete 3, insert 5 first, move 1 to the end, change 2's caption.
        let plan = list.show([photo(5, "e"), photo(2, "b2"), photo(4, "d"), photo(1, "a")])

        #expect(list.view.events.count == 2)
        #expect(plan.sectionDeletes == [2])
        #expect(plan.sectionInserts == [0])
        #expect(plan.sectionMoves == [ListDiffResult.Move(from: 0, to: 3)])
        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 1, to: 1)])
        #expect(list.adapter.sectionController(at: 1) === kept)
        #expect(list.dataSource.log.take() == ["photo 5: update 'e'", "photo 2: update 'b2'"])
        #expect(list.view.mismatches().isEmpty)
        #expect(
            list.view.renderedRows() == [
                "[photo 5]", "e", "[photo 2]", "b2", "[photo 4]", "d", "[photo 1]", "a",
            ])
    }

    @Test func performUpdatesWithNothingChanged_handsTheViewAnEmptyPlan() {
        let list = SampleListFixture([])
        list.show([photo(1), note("a", ["x"])])
        let plan = list.adapter.performUpdates()
        #expect(plan.isEmpty)
        #expect(list.view.reloadCount == 0)
    }

    @Test func unclaimedItem_getsOneFallbackRowAndADiagnostic() {
        let list = SampleListFixture([])
        var handled: [ListDiagnostic] = []
        list.adapter.onDiagnostic = { handled.append($0) }

        list.show([photo(1, "a"), AnyListItem(SampleUnknown(id: "x"))])

        #expect(list.view.renderedRows() == ["[photo 1]", "a", "SampleUnknown(x): something new"])
        let identifier = AnyListItem(SampleUnknown(id: "x")).diffIdentifier
        let expected = ListDiagnostic.unclaimedItem(identifier, summary: "SampleUnknown(x): something new")
        #expect(list.adapter.diagnostics == [expected])
        #expect(handled == [expected])
        #expect(
            expected.description
                == "ListAdapter: no section controller claims item SampleUnknown(x) ('SampleUnknown(x): something "
                + "new'); it is shown as a one-line fallback row. Return a controller for its type from "
                + "sectionController(for:).")
    }

    @Test func fallbackRow_isCutToTheViewsWidth() {
        let list = SampleListFixture([])
        list.view.width = 10
        list.show([AnyListItem(SampleUnknown(id: "x"))])
        #expect(list.view.renderedRows() == ["SampleUnkn"])
        #expect(list.view.renderedHeights() == [1])
    }

    @Test func controllerForAnotherModelType_getsTheFallbackAndADiagnostic() {
        let list = SampleListFixture([])
        list.dataSource.mismatchesNoteControllers = true
        list.show([note("a", ["x", "y"])])

        #expect(list.view.renderedRows().count == 1)
        let diagnostic = list.adapter.diagnostics.first
        #expect(
            diagnostic
                == .controllerModelMismatch(
                    AnyListItem(SampleNote(id: "a", texts: [])).diffIdentifier,
                    controller: "SamplePhotoController",
                    expectedModel: "SamplePhoto"))
    }

    @Test func duplicateItems_keepTheFirstAndReportOneDiagnostic() {
        let list = SampleListFixture([])
        list.show([photo(1, "first"), photo(2), photo(1, "again"), note("a", ["x"]), photo(2), photo(1)])

        #expect(
            list.adapter.items.map(\.description) == [
                "SamplePhoto(1): photo 1 'first'", "SamplePhoto(2): photo 2 ''", "SampleNote(a)",
            ])
        #expect(list.adapter.diagnostics.count == 1)
        let expected = ListDiagnostic.duplicateIdentifiers(
            [photo(1).diffIdentifier, photo(2).diffIdentifier], droppedCount: 3)
        #expect(list.adapter.diagnostics == [expected])
        #expect(
            expected.description.contains(
                "duplicate identifiers SamplePhoto(1), SamplePhoto(2); kept the first of each and dropped 3 items"
            ))
        #expect(list.view.mismatches().isEmpty)
    }

    @Test func changedNote_isReloadedRowByRow() {
        let list = SampleListFixture([])
        list.show([
            photo(1),
            AnyListItem(SampleNote(id: "a", lines: [.init(id: 1, text: "one"), .init(id: 2, text: "two")])),
        ])

        let plan = list.show([
            photo(1),
            AnyListItem(
                SampleNote(id: "a", lines: [.init(id: 2, text: "TWO"), .init(id: 3, text: "three")])),
        ])

        let rows = ListUpdatePlan.RowChanges(
            oldRowCount: 2, newRowCount: 2, deletes: [0], inserts: [1], reloads: [1])
        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 1, to: 1, rows: rows)])
        #expect(list.view.rejectedPlans.isEmpty)
        #expect(list.view.mismatches().isEmpty)
        #expect(list.view.renderedRows().suffix(2) == ["TWO", "three"])
    }

    @Test func rowChangesThatDoNotFit_reloadTheWholeSectionWithADiagnostic() {
        let list = SampleListFixture([])
        list.dataSource.noteControllersReportWrongRowChanges = true
        list.show([note("a", ["one"])])

        let plan = list.show([note("a", ["one", "two", "three"])])

        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 0, to: 0, rows: nil)])
        guard case .invalidRowChanges(let identifier, let changes) = list.adapter.diagnostics.first else {
            Issue.record("expected an invalidRowChanges diagnostic, got \(list.adapter.diagnostics)")
            return
        }
        #expect(identifier == note("a", []).diffIdentifier)
        #expect(changes.oldRowCount == 1 && changes.newRowCount == 2)
        #expect(list.view.mismatches().isEmpty)
        #expect(list.view.renderedRows() == ["one", "two", "three"])
    }

    @Test func viewThatMisappliesAPlan_isReloadedWithADiagnosticNamingBothCounts() {
        let list = SampleListFixture([])
        list.show([photo(1)])
        list.view.dropsNextInsertedSection = true

        list.show([photo(1), photo(2), note("a", ["x", "y", "z"])])

        #expect(list.adapter.diagnostics == [.rowCountMismatch(viewRows: 5, dataSourceRows: 7)])
        #expect(list.view.events.last == .reloadAll)
        #expect(list.view.mismatches().isEmpty)
        #expect(list.view.rowCount == 7)
    }

    @Test func layoutWhoseRowCountChangesBehindTheAdapter_isCaughtByTheRowCountCheck() {
        let list = SampleListFixture([])
        list.show([photo(1), photo(2)])
        list.dataSource.probe.setExtraCaptionRows(1)

        list.show([photo(1), photo(2), photo(3)])

        // The view kept 2 rows for each unchanged photo and added 3 for the new one.
        #expect(list.adapter.diagnostics == [.rowCountMismatch(viewRows: 7, dataSourceRows: 9)])
        #expect(list.view.mismatches().isEmpty)
    }

    @Test func selectingARow_tellsItsController() {
        let list = SampleListFixture([])
        list.show([photo(1), note("a", ["x", "y"])])
        _ = list.dataSource.log.take()

        list.view.select(ListIndexPath(section: 1, row: 1))
        list.view.select(ListIndexPath(section: 0, row: 5))
        list.view.select(ListIndexPath(section: 7, row: 0))

        #expect(list.dataSource.log.take() == ["note a: select 1"])
    }

    @Test func reloadData_makesNewControllersAndReloadsTheView() {
        let list = SampleListFixture([])
        list.show([photo(1)])
        let before = list.adapter.sectionController(at: 0)

        list.adapter.reloadData()

        #expect(list.adapter.sectionController(at: 0) !== before)
        #expect(list.view.events.last == .reloadAll)
        #expect(list.view.mismatches().isEmpty)
    }

    @Test func rowPositions_mapAcrossSections() {
        let list = SampleListFixture([])
        list.show([photo(1), note("a", ["x", "y", "z"]), photo(2)])

        #expect(list.adapter.indexPath(forRow: 0) == ListIndexPath(section: 0, row: 0))
        #expect(list.adapter.indexPath(forRow: 4) == ListIndexPath(section: 1, row: 2))
        #expect(list.adapter.indexPath(forRow: 6) == ListIndexPath(section: 2, row: 1))
        #expect(list.adapter.indexPath(forRow: 7) == nil)
        #expect(list.adapter.firstRow(ofSection: 2) == 5)
        #expect(list.adapter.identifier(ofSection: 1) == note("a", []).diffIdentifier)
        #expect(list.adapter.row(at: ListIndexPath(section: 9, row: 0), width: 10) == "")
    }

    @Test func adapterWithoutDataSource_showsNothing() {
        let view = RecordingListView<String>()
        let adapter = ListAdapter(view: view)
        do {
            let dataSource = SampleDataSource([photo(1)])
            adapter.dataSource = dataSource
            adapter.performUpdates()
            #expect(view.rowCount == 2)
        }
        // The data source is held weakly and is gone now.
        adapter.performUpdates()
        #expect(view.rowCount == 0)
        #expect(view.mismatches().isEmpty)
    }
}

@Suite @MainActor struct ListAdapterWorkingRangeTests {
    func photos(_ ids: Range<Int>) -> [AnyListItem] { ids.map { photo($0) } }

    @Test func controllersNearTheVisibleItems_enterAndLeaveOncePerTransition() {
        let list = SampleListFixture([], workingRangeSize: 1)
        list.show(photos(0..<10))
        _ = list.dataSource.log.take()

        list.view.show(sections: 0..<2)
        #expect(list.dataSource.log.take() == ["photo 0: enter", "photo 1: enter", "photo 2: enter"])

        list.view.show(sections: 0..<2)
        #expect(list.dataSource.log.take().isEmpty)

        list.view.show(sections: 3..<5)
        #expect(
            list.dataSource.log.take() == [
                "photo 0: exit", "photo 1: exit", "photo 3: enter", "photo 4: enter", "photo 5: enter",
            ])
    }

    @Test func removedItemInTheWorkingRange_leavesIt() {
        let list = SampleListFixture([], workingRangeSize: 1)
        list.show(photos(0..<6))
        list.view.show(sections: 1..<2)
        _ = list.dataSource.log.take()

        // Remove photo 1; the visible range (by position) now covers photo 2.
        list.show([photo(0)] + photos(2..<6))

        #expect(list.dataSource.log.take() == ["photo 1: exit", "photo 3: enter"])
    }

    @Test func nothingVisible_meansNothingInTheWorkingRange() {
        let list = SampleListFixture([], workingRangeSize: 3)
        list.show(photos(0..<4))
        #expect(!list.dataSource.log.take().contains { $0.hasSuffix("enter") })
    }
}
