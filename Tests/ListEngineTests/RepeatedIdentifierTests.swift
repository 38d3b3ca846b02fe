import ListEngine
import ListEngineTesting
import Testing

/// The same identifier several times in the middle of both lists (a post and its reposts, when a
/// list is keyed by post): the diff pairs the k-th copy in old with the k-th in new, so no copy is
/// dropped and re-inserted, and a change to one copy is an update of that copy alone.
///
/// The lists start and end with different items so nothing is paired by the common prefix or
/// suffix: every copy goes through the matching's chain of repeated identifiers.
@Suite struct RepeatedIdentifierTests {
    /// `A` three times among other items, with something new at each end.
    static let old: [DiffTestItem] = [9, 1, 2, 1, 3, 1].map { DiffTestItem(id: $0) }

    @Test func twoCopiesInTheMiddle_areBothKept() {
        // Given old X A B A, new A B A Y: both copies of A stay, in place
        let old = [DiffTestItem](ids: [9, 1, 2, 1])
        let new = [DiffTestItem](ids: [1, 2, 1, 8])

        let result = ListDiff.diff(old: old, new: new)

        // Then only X goes and only Y comes
        #expect(result.deletes == [0])
        #expect(result.inserts == [3])
        #expect(result.moves.isEmpty)
        #expect(result.updates.isEmpty)
        #expect(result.newIndex(for: 1) == 0, "the first copy is the first")
        #expect(ListDiffContract.violations(of: result, old: old, new: new) == [])
    }

    @Test func threeCopiesInTheMiddle_areAllKept() {
        // Given X A B A C A → A B A C A Y
        let new = [DiffTestItem](ids: [1, 2, 1, 3, 1, 8])

        let result = ListDiff.diff(old: Self.old, new: new)

        // Then the third copy is kept too, not deleted and inserted again
        #expect(result.deletes == [0])
        #expect(result.inserts == [5])
        #expect(result.moves.isEmpty)
        #expect(result.updates.isEmpty)
        #expect(ListDiffContract.violations(of: result, old: Self.old, new: new) == [])
    }

    @Test func aChangeToTheThirdCopy_isAnUpdateOfTheThirdCopyOnly() {
        // Given the third A's content changed
        var new = [DiffTestItem](ids: [1, 2, 1, 3, 1, 8])
        new[4].version = 1

        let result = ListDiff.diff(old: Self.old, new: new)

        // Then old #5 (the third A) is the one update; the others are untouched
        #expect(result.updates == [5])
        #expect(result.deletes == [0])
        #expect(result.inserts == [5])
        #expect(result.moves.isEmpty)
        #expect(ListDiffContract.violations(of: result, old: Self.old, new: new) == [])
    }

    @Test func copiesThatChangePlaces_pairInOrder() {
        // Given X A B A C A → Y A C A B A (B and C swap; each A keeps its rank among the As)
        let new = [DiffTestItem](ids: [8, 1, 3, 1, 2, 1])

        let result = ListDiff.diff(old: Self.old, new: new)

        // Then two of the five kept items move (the fewest), and no copy of A is dropped or added
        #expect(result.deletes == [0])
        #expect(result.inserts == [0])
        #expect(result.moves.count == 2)
        #expect(result.updates.isEmpty)
        #expect(ListDiffContract.violations(of: result, old: Self.old, new: new) == [])
    }

    @Test func fewerCopiesInNew_dropOnlyTheLastOnes() {
        // Given X A B A C A → A B A C Y: the first two copies stay, the third goes
        let new = [DiffTestItem](ids: [1, 2, 1, 3, 8])

        let result = ListDiff.diff(old: Self.old, new: new)

        #expect(result.deletes == [0, 5])
        #expect(result.inserts == [4])
        #expect(result.moves.isEmpty)
        #expect(ListDiffContract.violations(of: result, old: Self.old, new: new) == [])
    }

    @Test func aLongRunOfOneIdentifierAmongOthers_keepsEveryCopy() {
        // Given one identifier 40 times, interleaved with others, and new ends
        let old =
            [DiffTestItem(id: -1)] + (0..<40).flatMap { [DiffTestItem(id: 7), DiffTestItem(id: 100 + $0)] }
        var new = Array(old.dropFirst()) + [DiffTestItem(id: -2)]
        new[39 * 2].version = 1

        let result = ListDiff.diff(old: old, new: new)

        // Then every copy is matched: one delete, one insert, one update (the last copy)
        #expect(result.deletes == [0])
        #expect(result.inserts == [80])
        #expect(result.moves.isEmpty)
        #expect(result.updates == [79])
        #expect(ListDiffContract.violations(of: result, old: old, new: new) == [])
    }
}
