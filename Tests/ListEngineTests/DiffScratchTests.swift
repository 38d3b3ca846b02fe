import Foundation
import ListEngineTesting
import Testing

@testable import ListEngine

/// The scratch memory diffs keep between runs.
@Suite struct DiffScratchTests {
    @Test func largeDiff_givesItsScratchMemoryBack_afterAShortWhile() async throws {
        // Before, the block of the largest diff stayed parked for good: about 8 MB for these
        // 200,000 items, 40-128 MB after a million.
        let old = (0..<200_000).map { DiffTestItem(id: $0) }
        let new = Array(old.reversed())
        #expect(ListDiff.diff(old: old, new: new).moves.count == old.count - 1)
        #expect(DiffScratch.shared.parkedByteCount <= 1 << 20)
        // The large block is kept for a moment (for the next large diff), then freed. Other
        // suites may diff at the same time, so wait for any large block to go, with room for a
        // busy machine.
        let deadline = Date().addingTimeInterval(30)
        while DiffScratch.shared.largeByteCount > 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(DiffScratch.shared.largeByteCount == 0)
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
        #expect(scratch.parkedByteCount == 4_096, "a large block is never the parked workspace")
    }

    @Test func largeDiffsInARow_reuseTheLargeBlock_thenItIsFreed() async throws {
        let scratch = DiffScratch()
        let large = scratch.take(byteCount: 8 << 20)
        scratch.giveBack(large)
        #expect(scratch.largeByteCount == 8 << 20)
        let again = scratch.take(byteCount: 6 << 20)
        #expect(again.base == large.base, "the next large diff reuses warm memory")
        #expect(scratch.largeByteCount == 0)
        scratch.giveBack(again)
        let deadline = Date().addingTimeInterval(30)
        while scratch.largeByteCount > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(scratch.largeByteCount == 0, "and it is freed once no diff takes it")
    }
}
