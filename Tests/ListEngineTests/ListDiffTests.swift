import Basics
import ListEngineTesting
import Testing

@testable import ListEngine

@Suite struct ListDiffTests {
    /// The identifiers of items, for compact expectations.
    func ids(_ items: [DiffTestItem]) -> [Int] { items.map(\.id) }

    func diff(_ old: [Int], _ new: [Int]) -> ListDiffResult {
        ListDiff.diff(old: [DiffTestItem](ids: old), new: [DiffTestItem](ids: new))
    }

    @Test func diffWhenBothEmpty_reportsNoChanges() {
        let result = diff([], [])
        #expect(result == diff([], []))
        #expect(!result.hasChanges)
        #expect(
            result.deletes.isEmpty && result.inserts.isEmpty && result.moves.isEmpty && result.updates.isEmpty
        )
    }

    @Test func diffWhenOldEmpty_insertsEverything() {
        let result = diff([], [1, 2, 3])
        #expect(result.inserts == [0, 1, 2])
        #expect(result.deletes.isEmpty && result.moves.isEmpty && result.updates.isEmpty)
        #expect(result.hasChanges)
    }

    @Test func diffWhenNewEmpty_deletesEverything() {
        let result = diff([1, 2, 3], [])
        #expect(result.deletes == [0, 1, 2])
        #expect(result.inserts.isEmpty && result.moves.isEmpty && result.updates.isEmpty)
    }

    @Test func diffWhenIdentical_reportsNoChangesAndAnswersLookups() {
        let result = diff([1, 2, 3], [1, 2, 3])
        #expect(!result.hasChanges)
        #expect(result.oldIndex(for: 2) == 1)
        #expect(result.newIndex(for: 3) == 2)
        #expect(result.oldIndex(for: 9) == nil)
        #expect(result.oldIndex(for: "2") == nil)
    }

    @Test func diffWhenAllUpdated_reportsOnlyUpdates() {
        let old = [DiffTestItem](ids: [1, 2, 3])
        let new = old.map { DiffTestItem(id: $0.id, version: 1) }
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.updates == [0, 1, 2])
        #expect(result.deletes.isEmpty && result.inserts.isEmpty && result.moves.isEmpty)
    }

    @Test func diffWhenTwoItemsSwap_reportsOneMove() {
        let result = diff([1, 2], [2, 1])
        #expect(result.moves.count == 1)
        #expect(
            ListDiffContract.violations(
                of: result, old: [DiffTestItem](ids: [1, 2]), new: [DiffTestItem](ids: [2, 1])
            ).isEmpty)
    }

    @Test func diffWhenReversed_reportsOneMoveFewerThanItems() {
        let old = Array(0..<10)
        let result = diff(old, old.reversed())
        #expect(result.moves.count == 9)
        #expect(result.deletes.isEmpty && result.inserts.isEmpty)
    }

    @Test func diffWhenFirstMovesToLast_reportsOnlyThatMove() {
        let result = diff([1, 2, 3, 4], [2, 3, 4, 1])
        #expect(result.moves == [ListDiffResult.Move(from: 0, to: 3)])
    }

    @Test func diffWhenItemsShiftOnlyByInsertsAndDeletes_reportsNoMoves() {
        let result = diff([1, 2, 3, 4, 5], [0, 2, 3, 9, 5])
        #expect(result.moves.isEmpty)
        #expect(result.deletes == [0, 3])
        #expect(result.inserts == [0, 3])
    }

    @Test func diffWhenItemMovesAndChanges_reportsMoveAndUpdate() {
        let old = [DiffTestItem(id: 1), DiffTestItem(id: 2), DiffTestItem(id: 3)]
        let new = [DiffTestItem(id: 2), DiffTestItem(id: 3), DiffTestItem(id: 1, version: 1)]
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.moves == [ListDiffResult.Move(from: 0, to: 2)])
        #expect(result.updates == [0])
    }

    @Test func diffWhenDuplicatesInOldOnly_deletesTheExtraCopy() {
        let old = [DiffTestItem](ids: [1, 1, 2])
        let new = [DiffTestItem](ids: [1, 2])
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.deletes == [1])
        #expect(result.inserts.isEmpty && result.moves.isEmpty)
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test func diffWhenDuplicatesInNewOnly_insertsTheExtraCopy() {
        let old = [DiffTestItem](ids: [1, 2])
        let new = [DiffTestItem](ids: [1, 2, 1])
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.inserts == [2])
        #expect(result.deletes.isEmpty && result.moves.isEmpty)
        #expect(result.newIndex(for: 1) == 0)
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test func diffWhenDuplicatesInBoth_matchesTheKthCopies() {
        let old = [DiffTestItem(id: 1), DiffTestItem(id: 2), DiffTestItem(id: 1)]
        let new = [DiffTestItem(id: 1), DiffTestItem(id: 1, version: 1), DiffTestItem(id: 2)]
        let result = ListDiff.diff(old: old, new: new)
        // Old #0 ↔ new #0 and old #2 ↔ new #1 (changed); 2 moves from 1 to 2.
        #expect(result.updates == [2])
        #expect(result.deletes.isEmpty && result.inserts.isEmpty)
        #expect(result.moves.count == 1)
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test func diffWhenEveryIdentifierIsTheSame_neverCrashes() {
        let old = [DiffTestItem](repeating: DiffTestItem(id: 7), count: 50)
        let new = [DiffTestItem](repeating: DiffTestItem(id: 7, version: 1), count: 30)
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.deletes == Array(30..<50))
        #expect(result.updates == Array(0..<30))
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test func diffOfLargeListWithManyDuplicates_fallsBackToExactPartitioning() {
        // Far more copies of one identifier than a hash bucket has room for.
        var random = SplitMix64(seed: 42)
        let old = (0..<20_000).map { DiffTestItem(id: $0 % 3 == 0 ? 1 : $0) }
        var new = old
        new.removeLast(500)
        new.shuffle(using: &random)
        let result = ListDiff.diff(old: old, new: new)
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test(arguments: TestSeeds.all)
    func diffOfRandomPairs_satisfiesTheContract(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<2_000 {
            let duplicates = index % 4 == 3
            let (old, new) = RandomListPair.make(maximumCount: 40, duplicates: duplicates, using: &random)
            let problems = ListDiffContract.violations(
                of: ListDiff.diff(old: old, new: new), old: old, new: new)
            #expect(problems.isEmpty, "seed \(seed), case \(index): old \(old), new \(new): \(problems)")
            if !problems.isEmpty { return }
        }
    }

    @Test(arguments: TestSeeds.all)
    func diffOfLargeRandomPairs_satisfiesTheContractAcrossHashBuckets(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<4 {
            let (old, new) = RandomListPair.make(
                maximumCount: 30_000, duplicates: index % 2 == 1, using: &random)
            let problems = ListDiffContract.violations(
                of: ListDiff.diff(old: old, new: new), old: old, new: new)
            #expect(
                problems.isEmpty,
                "seed \(seed), case \(index) (\(old.count) → \(new.count)): \(problems.prefix(5))")
        }
    }

    @Test(arguments: TestSeeds.all)
    func diffWithWideIndexes_matchesTheNarrowOne(seed: UInt64) {
        // Arrays of 2^31 items use 64-bit indexes internally; the same code must agree.
        var random = SplitMix64(seed: seed)
        for index in 0..<200 {
            let (old, new) = RandomListPair.make(maximumCount: 60, duplicates: index % 2 == 0, using: &random)
            let narrow = ListDiff.diffMatching(old: old, new: new, indexType: Int32.self).result
            let wide = ListDiff.diffMatching(old: old, new: new, indexType: Int.self).result
            #expect(narrow == wide, "seed \(seed), case \(index): old \(old), new \(new)")
            #expect(
                ListDiffContract.violations(of: wide, old: old, new: new).isEmpty,
                "seed \(seed), case \(index)")
        }
    }

    @Test(arguments: TestSeeds.all)
    func diffKeepingOnlyIdentifiers_matchesTheOneKeepingItems(seed: UInt64) {
        // Items bigger than their identifier keep only the identifier while matching and compare
        // content afterwards; both ways must agree.
        var random = SplitMix64(seed: seed)
        for index in 0..<300 {
            let (old, new) = RandomListPair.make(maximumCount: 50, duplicates: index % 3 == 0, using: &random)
            let items = ListDiff.diffMatching(
                old: old, new: new, key: HeckelItemKey<DiffTestItem>.self, indexType: Int32.self,
                keepsMatches: false)
            let identifiers = ListDiff.diffMatching(
                old: old, new: new, key: HeckelIdentifierKey<DiffTestItem>.self, indexType: Int32.self,
                keepsMatches: false)
            #expect(items.result == identifiers.result, "seed \(seed), case \(index): old \(old), new \(new)")
        }
    }

    @Test func diffOfLargeItems_comparesContentAfterMatching() {
        struct Large: ListDiffable {
            var id: Int
            var fields: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
            var diffIdentifier: Int { id }
            func isContentEqual(to other: Large) -> Bool { fields.4 == other.fields.4 }
        }
        let old = (0..<5).map { Large(id: $0) }
        var new = Array(old.reversed())
        new[1].fields.4 = 1
        let result = ListDiff.diff(old: old, new: new)
        #expect(result.updates == [3])
        #expect(result.moves.count == 4)
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty)
    }

    @Test func diffWhenSameOrderButContentChanged_isAllCommonPrefixAndReportsUpdates() {
        let old = [DiffTestItem](ids: [3, 1, 2])
        var new = old
        new[1].version = 2
        let ends = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in DiffEnds(old: old, new: new) }
        }
        #expect(ends.prefix == 3 && ends.suffix == 0)
        #expect(ends.prefixUpdates == [1])
        #expect(ListDiff.diff(old: old, new: new).updates == [1])
    }

    @Test func diffResultDescription_listsEveryChange() {
        let result = diff([1, 2, 3], [3, 1, 4])
        #expect(
            result.description == "ListDiffResult(3 → 3: deletes [1], inserts [2], moves [2→0], updates [])")
    }
}
