import ListEngineTesting
import Testing

@testable import ListEngine

/// The scratch memory diffs keep between runs.
@Suite struct DiffScratchTests {
    @Test func largeDiff_givesItsScratchMemoryBack() {
        // Before, the block of the largest diff stayed parked: about 8 MB for these 200,000
        // items, 40-128 MB after a million.
        let old = (0..<200_000).map { DiffTestItem(id: $0) }
        let new = Array(old.reversed())
        #expect(ListDiff.diff(old: old, new: new).moves.count == old.count - 1)
        #expect(DiffScratch.shared.parkedByteCount <= 1 << 20)
    }

    @Test func smallDiff_reusesTheParkedWorkspace() {
        let scratch = DiffScratch()
        let block = scratch.take(byteCount: 4_096)
        scratch.giveBack(block)
        #expect(scratch.parkedByteCount == 4_096)
        let again = scratch.take(byteCount: 1_000)
        #expect(again.base == block.base)
        scratch.giveBack(again)
        let large = scratch.take(byteCount: 8 << 20)
        scratch.giveBack(large)
        #expect(scratch.parkedByteCount == 4_096)
    }
}
