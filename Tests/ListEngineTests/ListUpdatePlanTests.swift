import Basics
import ListEngine
import ListEngineTesting
import Testing

@Suite struct ListUpdatePlanTests {
    @Test func applySections_movesInsertsDeletesAndReloads() {
        // old: a b c d → new: X b' d a  (c deleted, X inserted, a moved to the end, b reloaded)
        let plan = ListUpdatePlan(
            oldSectionCount: 4, newSectionCount: 4, sectionDeletes: [2], sectionInserts: [0],
            sectionMoves: [ListDiffResult.Move(from: 0, to: 3)],
            sectionReloads: [ListUpdatePlan.SectionReload(from: 1, to: 1)])

        let result = plan.applySections(
            to: ["a", "b", "c", "d"], inserted: { _ in "X" }, reloaded: { value, _ in value + "'" })

        #expect(result == ["X", "b'", "d", "a"])
    }

    @Test func applySections_rejectsAPlanThatDoesNotFit() {
        let plan = ListUpdatePlan(oldSectionCount: 2, newSectionCount: 2, sectionDeletes: [0])
        #expect(
            plan.applySections(to: ["a", "b"], inserted: { _ in "X" }, reloaded: { value, _ in value }) == nil
        )
        let twice = ListUpdatePlan(oldSectionCount: 2, newSectionCount: 1, sectionDeletes: [1, 1])
        #expect(
            twice.applySections(to: ["a", "b"], inserted: { _ in "X" }, reloaded: { value, _ in value })
                == nil)
        #expect(
            twice.applySections(to: ["a"], inserted: { _ in "X" }, reloaded: { value, _ in value }) == nil)
    }

    @Test(arguments: TestSeeds.all)
    func applyingADiffAsAPlan_givesTheNewList(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<300 {
            let (old, new) = RandomListPair.make(maximumCount: 30, duplicates: false, using: &random)
            let diff = ListDiff.diff(old: old, new: new)
            let plan = ListUpdatePlan(
                oldSectionCount: old.count, newSectionCount: new.count, sectionDeletes: diff.deletes,
                sectionInserts: diff.inserts, sectionMoves: diff.moves,
                sectionReloads: diff.updates.compactMap { from in
                    diff.newIndex(for: old[from].id).map { ListUpdatePlan.SectionReload(from: from, to: $0) }
                })
            let result = plan.applySections(
                to: old, inserted: { new[$0] }, reloaded: { _, reload in new[reload.to] })
            #expect(result == new, "seed \(seed), case \(index): old \(old), new \(new)")
        }
    }

    @Test func applyRows_appliesRowChangesAndReloadsAtNewPositions() {
        let changes = ListUpdatePlan.RowChanges(
            oldRowCount: 3, newRowCount: 3, deletes: [0], inserts: [2], moves: [], reloads: [2])
        let result = changes.applyRows(
            to: ["a", "b", "c"], inserted: { _ in "new" },
            reloaded: { value, position in "\(value)@\(position)" })
        #expect(result == ["b", "c@1", "new"])
        #expect(changes.isConsistent)
        #expect(!ListUpdatePlan.RowChanges(oldRowCount: 1, newRowCount: 1, deletes: [0]).isConsistent)
        #expect(!ListUpdatePlan.RowChanges(oldRowCount: 1, newRowCount: 1, reloads: [4]).isConsistent)
    }
}

@Suite struct AnyListItemTests {
    @Test func itemsOfDifferentTypesWithEqualIdentifiers_areDifferentItems() {
        let photoItem = AnyListItem(SamplePhoto(id: 1))
        let otherPhoto = AnyListItem(SamplePhoto(id: 1, caption: "changed"))
        let line = AnyListItem(SampleNote.Line(id: 1, text: ""))

        #expect(photoItem.diffIdentifier == otherPhoto.diffIdentifier)
        #expect(photoItem.diffIdentifier != line.diffIdentifier)
        #expect(!photoItem.isContentEqual(to: otherPhoto))
        #expect(!photoItem.isContentEqual(to: line))
        #expect(photoItem.isContentEqual(to: AnyListItem(SamplePhoto(id: 1))))
        #expect(Set([photoItem.diffIdentifier, otherPhoto.diffIdentifier, line.diffIdentifier]).count == 2)
    }

    @Test func wrappedModel_comesBackByType() {
        let item = AnyListItem(SamplePhoto(id: 3, caption: "x"))
        #expect(item.model(as: SamplePhoto.self)?.caption == "x")
        #expect(item.model(as: SampleNote.self) == nil)
        #expect(item.model(as: AnyListItem.self)?.diffIdentifier == item.diffIdentifier)
        #expect(item.base is SamplePhoto)
        #expect(ObjectIdentifier(item.modelType) == ObjectIdentifier(SamplePhoto.self))
        #expect(AnyListItem(item).diffIdentifier == item.diffIdentifier)
    }

    @Test func description_namesTypeIdentifierAndTheModelsOwnDescription() {
        #expect(AnyListItem(SamplePhoto(id: 3, caption: "x")).description == "SamplePhoto(3): photo 3 'x'")
        #expect(AnyListItem(SampleNote(id: "n", texts: [])).description == "SampleNote(n)")
    }

    @Test func heterogeneousDiff_treatsTypeAsPartOfIdentity() {
        let old = [AnyListItem(SamplePhoto(id: 1)), AnyListItem(SampleNote.Line(id: 1, text: "a"))]
        let new = [AnyListItem(SampleNote.Line(id: 1, text: "b")), AnyListItem(SamplePhoto(id: 2))]
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.deletes == [0])
        #expect(result.inserts == [1])
        #expect(result.updates == [1])
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }
}
