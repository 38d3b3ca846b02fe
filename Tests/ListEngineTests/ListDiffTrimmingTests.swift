import Basics
import ListEngineTesting
import Synchronization
import Testing

@testable import ListEngine

/// The common prefix and suffix the diff pairs by position before matching the middle.
@Suite struct ListDiffTrimmingTests {
    func diff(_ old: [Int], _ new: [Int]) -> ListDiffResult {
        ListDiff.diff(old: [DiffTestItem](ids: old), new: [DiffTestItem](ids: new))
    }

    /// The diff of `old` → `new`, checked against the contract and against matching the whole
    /// arrays without trimming.
    func checked(_ old: [DiffTestItem], _ new: [DiffTestItem]) -> ListDiffResult {
        let result = ListDiff.diff(old: old, new: new)
        let untrimmed = ListDiff.diffMatching(old: old, new: new, indexType: Int32.self).result
        #expect(ListDiffContract.violations(of: result, old: old, new: new).isEmpty, "old \(old), new \(new)")
        #expect(result == untrimmed, "old \(old), new \(new)")
        let (adapterResult, matches) = ListDiff.diffAndMatches(old: old, new: new)
        #expect(adapterResult == result)
        let expected = ListDiffContract.referenceMatching(old: old, new: new).newToOld.map { $0 ?? -1 }
        #expect(matches == expected, "old \(old), new \(new)")
        return result
    }

    @Test func trimmingWhenAllEqual_reportsOnlyContentUpdates() {
        let old = [DiffTestItem](ids: [1, 2, 3, 4])
        var new = old
        new[0].version = 1
        new[3].version = 1
        let result = checked(old, new)
        #expect(result.updates == [0, 3])
        #expect(result.deletes.isEmpty && result.inserts.isEmpty && result.moves.isEmpty)
    }

    @Test func trimmingWhenAllDifferent_deletesAndInsertsEverything() {
        let result = checked([DiffTestItem](ids: [1, 2, 3]), [DiffTestItem](ids: [4, 5]))
        #expect(result.deletes == [0, 1, 2])
        #expect(result.inserts == [0, 1])
    }

    @Test func trimmingWhenOldOrNewIsEmpty_insertsOrDeletesEverything() {
        #expect(checked([], [DiffTestItem](ids: [1, 2])).inserts == [0, 1])
        #expect(checked([DiffTestItem](ids: [1, 2]), []).deletes == [0, 1])
        #expect(!checked([], []).hasChanges)
    }

    @Test func trimmingWhenNewPostsAreOnTop_insertsThemAndMovesNothing() {
        var new = [DiffTestItem](ids: [100, 101])
        new += [DiffTestItem](ids: Array(0..<50))
        new[10].version = 3
        let result = checked([DiffTestItem](ids: Array(0..<50)), new)
        #expect(result.inserts == [0, 1])
        #expect(result.updates == [8])
        #expect(result.moves.isEmpty && result.deletes.isEmpty)
    }

    @Test func trimmingWhenChangesAreOnlyAtTheEnds_reportsThemAtTheirIndexes() {
        // The first item replaced, two appended: no common ends at all.
        var new = [DiffTestItem](ids: [99] + Array(1..<20) + [100, 101])
        new[10].version = 1
        let result = checked([DiffTestItem](ids: Array(0..<20)), new)
        #expect(result.deletes == [0])
        #expect(result.inserts == [0, 20, 21])
        #expect(result.updates == [10])
        #expect(result.moves.isEmpty)
        // One item inserted after the first and one before the last two: short ends, long middle.
        var inner = [DiffTestItem](ids: [0, 99] + Array(1..<18) + [100, 18, 19])
        inner[0].version = 1
        inner[21].version = 1
        let trimmed = checked([DiffTestItem](ids: Array(0..<20)), inner)
        #expect(trimmed.inserts == [1, 19])
        #expect(trimmed.updates == [0, 19])
        #expect(trimmed.moves.isEmpty && trimmed.deletes.isEmpty)
    }

    @Test func trimmingWhenAMiddleItemMoves_offsetsTheMove() {
        let result = checked(
            [DiffTestItem](ids: [0, 1, 2, 3, 4, 5, 6, 7]), [DiffTestItem](ids: [0, 1, 4, 2, 3, 5, 6, 7]))
        #expect(result.moves == [ListDiffResult.Move(from: 4, to: 2)])
    }

    @Test func trimmingWhenTheMiddleHoldsACopyOfASuffixItem_pairsTheKthCopies() {
        // new's first 5 is the first copy: it pairs with old's only 5, so the suffix's 5 is
        // an insert, not a match by position.
        let result = checked([DiffTestItem](ids: [1, 2, 5]), [DiffTestItem](ids: [5, 1, 2, 5]))
        #expect(result.inserts == [3])
        #expect(result.moves == [ListDiffResult.Move(from: 2, to: 0)])
        // A copy in old's middle: old's first 5 pairs with new's only 5.
        #expect(checked([DiffTestItem](ids: [5, 1, 2, 5]), [DiffTestItem](ids: [1, 2, 5])).deletes == [3])
        // Copies in the prefix and the suffix.
        _ = checked([DiffTestItem](ids: [5, 5, 3, 5, 5]), [DiffTestItem](ids: [5, 4, 5, 5, 5]))
    }

    @Test(arguments: TestSeeds.all)
    func trimmingOfPairsWithCommonEnds_matchesTheUntrimmedDiff(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<600 {
            let (middleOld, middleNew) = RandomListPair.make(
                maximumCount: 12, duplicates: index % 3 == 0, using: &random)
            // Ends drawn from the same identifiers as the middle when duplicates are on, so some
            // suffixes share identifiers with the middle.
            let range = index % 3 == 0 ? 0..<6 : 1_000_000..<2_000_000
            let head = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                DiffTestItem(id: Int.random(in: range, using: &random))
            }
            let tail = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                DiffTestItem(id: Int.random(in: range, using: &random))
            }
            var new = head + middleNew + tail
            for position in new.indices where Int.random(in: 0..<8, using: &random) == 0 {
                new[position].version += 1
            }
            _ = checked(head + middleOld + tail, new)
        }
    }

    @Test func newPostsOnTop_hashEachIdentifierAtMostOnce() {
        // Before trimming, the matching hashed every identifier of old and of new.
        let counter = HashCounter()
        let old = (0..<1_000).map { CountedItem(id: CountedID(value: $0, counter: counter)) }
        let fresh = (1_000..<1_100).map { CountedItem(id: CountedID(value: $0, counter: counter)) }
        let result = ListDiff.diff(old: old, new: fresh + old)
        #expect(result.inserts == Array(0..<100))
        #expect(counter.count <= old.count + 2 * fresh.count, "\(counter.count) hashes")
    }
}

/// Counts the identifier hashes a diff computes.
final class HashCounter: Sendable {
    let hashes = Atomic<Int>(0)
    var count: Int { hashes.load(ordering: .relaxed) }
}

/// An identifier that counts its hashes.
struct CountedID: Hashable, Sendable {
    let value: Int
    let counter: HashCounter

    static func == (lhs: CountedID, rhs: CountedID) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) {
        counter.hashes.add(1, ordering: .relaxed)
        hasher.combine(value)
    }
}

/// An item identified by a `CountedID`.
struct CountedItem: ListDiffable, Sendable {
    let id: CountedID
    var diffIdentifier: CountedID { id }
    func isContentEqual(to other: CountedItem) -> Bool { true }
}
