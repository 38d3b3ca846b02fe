import Basics
import ListEngineTesting
import Testing

@testable import ListEngine

/// The batch-safe form of a result: no item both moved and updated.
@Suite struct ListDiffBatchSafeTests {
    /// The problems of a batch-safe result: an index both moved and updated, or a result that
    /// does not apply back to new's identifiers.
    func problems(_ safe: ListDiffResult, old: [DiffTestItem], new: [DiffTestItem]) -> [String] {
        var problems: [String] = []
        let both = Set(safe.moves.map(\.from)).intersection(safe.updates)
        if !both.isEmpty { problems.append("moved and updated: \(both.sorted())") }
        let applied = ListDiffContract.apply(safe, old: old.map(\.id), new: new.map(\.id))
        if applied != new.map(\.id).map(Optional.some) { problems.append("applies to \(applied)") }
        if safe.deletes != safe.deletes.sorted() || safe.inserts != safe.inserts.sorted() {
            problems.append("deletes or inserts out of order")
        }
        if old.count - safe.deletes.count + safe.inserts.count != new.count { problems.append("counts") }
        return problems
    }

    @Test func batchSafeWhenAnItemMovesAndChanges_deletesAndInsertsIt() {
        let old = [DiffTestItem](ids: [1, 2, 3, 4])
        var new = [DiffTestItem](ids: [4, 1, 2, 3])
        new[0].version = 1
        new[2].version = 1
        let plain = ListDiff.diff(old: old, new: new)
        #expect(plain.moves == [ListDiffResult.Move(from: 3, to: 0)])
        #expect(plain.updates == [1, 3])
        let safe = plain.batchSafe
        #expect(safe.moves.isEmpty)
        #expect(safe.deletes == [3])
        #expect(safe.inserts == [0])
        #expect(safe.updates == [1])
        #expect(problems(safe, old: old, new: new).isEmpty)
    }

    @Test func batchSafeWhenNothingMovedAndChanged_isThePlainResult() {
        let old = [DiffTestItem](ids: [1, 2, 3])
        var new = [DiffTestItem](ids: [3, 1, 2])
        new[1].version = 1
        let plain = ListDiff.diff(old: old, new: new)
        #expect(plain.batchSafe == plain)
    }

    @Test(arguments: TestSeeds.all)
    func batchSafeOfRandomPairs_appliesBackWithNoIndexMovedAndUpdated(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<1_000 {
            let (old, new) = RandomListPair.make(maximumCount: 40, duplicates: index % 4 == 3, using: &random)
            let plain = ListDiff.diff(old: old, new: new)
            let safe = plain.batchSafe
            let found = problems(safe, old: old, new: new)
            #expect(found.isEmpty, "seed \(seed), case \(index): old \(old), new \(new): \(found)")
            #expect(safe.moves.count <= plain.moves.count)
            #expect(safe.updates.count + (plain.moves.count - safe.moves.count) == plain.updates.count)
            if !found.isEmpty { return }
        }
    }
}
