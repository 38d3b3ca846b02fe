import ListEngine
import ListEngineTesting
import Testing

/// Updates of the shape a refresh brings: rows inserted above while rows below change, in one
/// batch; and heights that must be measured again when an item's content changes, whoever
/// numbers its versions.
@Suite @MainActor struct ListAdapterBatchShapeTests {
    /// A caption that wraps to three rows at the fixture's 40 columns.
    static let longCaption = String(repeating: "harbour ", count: 14)

    @Test func insertsAboveAndAChangeBelow_inOneBatch_reloadTheChangedSectionWhereItNowIs() {
        // Given three photos shown, the controller of the second one known
        let list = SampleListFixture([])
        list.show([photo(1, "one"), photo(2, "two"), photo(3, "three")])
        let second = list.adapter.sectionController(at: 1)
        _ = list.dataSource.log.take()
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 1)

        // When two new photos arrive on top and the second one's caption changes, in one update
        let plan = list.show([
            photo(9, "new a"), photo(8, "new b"), photo(1, "one"), photo(2, Self.longCaption),
            photo(3, "three"),
        ])

        // Then one plan: two inserts on top, the changed photo reloaded from 1 to its new place 3,
        // nothing deleted or moved
        #expect(plan.sectionInserts == [0, 1])
        #expect(plan.sectionDeletes.isEmpty)
        #expect(plan.sectionMoves.isEmpty)
        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 1, to: 3)])
        #expect(list.view.events.count == 2, "one reload at first, then one batch")
        // the same controller keeps the changed photo, and hears its new caption once
        #expect(list.adapter.sectionController(at: 3) === second)
        #expect(
            list.dataSource.log.take() == [
                "photo 9: update 'new a'", "photo 8: update 'new b'", "photo 2: update '\(Self.longCaption)'",
            ])
        // every row once, in order, the changed one measured again
        #expect(
            list.view.renderedRows() == [
                "[photo 9]", "new a", "[photo 8]", "new b", "[photo 1]", "one", "[photo 2]", Self.longCaption,
                "[photo 3]", "three",
            ])
        #expect(list.view.mismatches().isEmpty)
        #expect(list.adapter.height(at: ListIndexPath(section: 3, row: 1), width: 40) == 3)
        #expect(list.adapter.height(at: ListIndexPath(section: 2, row: 1), width: 40) == 1)
        #expect(list.adapter.firstRow(ofSection: 3) == 6)
        #expect(list.adapter.diagnostics.isEmpty)
    }

    @Test func insertsAboveAndBelowAndAChangeBetween_keepEveryOtherRowWhereItWas() {
        let list = SampleListFixture([])
        list.show((1...5).map { photo($0, "p\($0)") })
        _ = list.dataSource.log.take()

        // When one photo arrives on top, one at the end, and the middle one changes
        let plan = list.show(
            [photo(0, "top")] + (1...5).map { photo($0, $0 == 3 ? "p3 again" : "p\($0)") } + [photo(6, "end")]
        )

        #expect(plan.sectionInserts == [0, 6])
        #expect(plan.sectionReloads == [ListUpdatePlan.SectionReload(from: 2, to: 3)])
        #expect(plan.sectionDeletes.isEmpty && plan.sectionMoves.isEmpty)
        #expect(
            list.dataSource.log.take() == [
                "photo 0: update 'top'", "photo 3: update 'p3 again'", "photo 6: update 'end'",
            ])
        #expect(list.adapter.items.map { "\($0.diffIdentifier)" } == (0...6).map { "SamplePhoto(\($0))" })
        #expect(list.view.mismatches().isEmpty)
    }

    @Test func aChangedItem_isMeasuredAgain_whenTheAdapterNumbersTheVersions() {
        // Given two photos (their models name no content version: the adapter numbers them),
        // each measured at 40 columns
        let list = SampleListFixture([])
        list.show([photo(1, "short"), photo(2, "short too")])
        #expect(list.adapter.height(at: ListIndexPath(section: 0, row: 1), width: 40) == 1)
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 1)

        // When the first photo's caption grows to three rows
        list.show([photo(1, Self.longCaption), photo(2, "short too")])

        // Then its height is measured again, not read from the cache of the old caption
        #expect(list.adapter.height(at: ListIndexPath(section: 0, row: 1), width: 40) == 3)
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 1)
        #expect(list.view.mismatches().isEmpty)
    }

    @Test func reloadData_measuresChangedItemsAgain() {
        // Given two photos measured
        let list = SampleListFixture([])
        list.show([photo(1, "short"), photo(2, "short too")])
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 1)

        // When the data changes behind the adapter and it reloads everything
        list.dataSource.items = [photo(1, "short"), photo(2, Self.longCaption)]
        list.adapter.reloadData()

        // Then the changed photo shows its new height
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 3)
        #expect(list.adapter.height(at: ListIndexPath(section: 0, row: 1), width: 40) == 1)

        // And again on a second reload
        list.dataSource.items = [photo(1, Self.longCaption), photo(2, "short")]
        list.adapter.reloadData()
        #expect(list.adapter.height(at: ListIndexPath(section: 0, row: 1), width: 40) == 3)
        #expect(list.adapter.height(at: ListIndexPath(section: 1, row: 1), width: 40) == 1)
    }
}
