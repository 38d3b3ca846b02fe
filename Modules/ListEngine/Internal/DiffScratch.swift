import Dispatch
import Synchronization

/// Scratch memory for diffs: one small workspace kept between diffs, large ones given back.
///
/// A block of at most `parkedBytes` (enough for a diff of about 10,000 items) stays parked
/// for the next diff, so the frequent small diffs of a screen reuse warm memory. A larger block
/// is kept for `largeGrace` after its diff ends and freed then unless another diff took it, so
/// large diffs in a row reuse warm memory (freeing at once made each 1M-item diff pay the page
/// faults of fresh memory: 58 ms instead of 36) while a process that once diffed a million
/// items does not keep tens of megabytes it may never use again. Concurrent diffs each get
/// their own block.
@usableFromInline
final class DiffScratch: Sendable {
    /// A block of raw memory and its size.
    @usableFromInline
    struct Block: @unchecked Sendable {
        // Invariant for @unchecked Sendable: a parked block is owned by the pool and touched
        // only inside its mutex; a taken block is owned by the one diff that took it.
        @usableFromInline let base: UnsafeMutableRawPointer
        @usableFromInline let byteCount: Int
    }

    /// The pool every diff uses.
    @usableFromInline static let shared = DiffScratch()

    /// The largest block kept parked between diffs.
    static let parkedBytes = 1 << 20
    /// The alignment of every block and region.
    @usableFromInline static let alignment = 64

    /// How long a large block is kept after its diff.
    static let largeGrace = DispatchTimeInterval.milliseconds(250)

    private let parked = Mutex<Block?>(nil)
    /// The large block kept for `largeGrace`, and a count that tells a scheduled release whether
    /// the block it was scheduled for is still the one kept.
    private let large = Mutex<(block: Block?, generation: Int)>((nil, 0))

    /// The size of the large block kept, or 0 when none is.
    var largeByteCount: Int { large.withLock { $0.block?.byteCount ?? 0 } }

    /// The size of the parked block, or 0 when none is parked.
    var parkedByteCount: Int { parked.withLock { $0?.byteCount ?? 0 } }

    /// A block of at least `byteCount` bytes; give it back with `giveBack`.
    @usableFromInline
    func take(byteCount: Int) -> Block {
        let wanted = Swift.max(byteCount, Self.alignment)
        if wanted <= Self.parkedBytes {
            let reused = parked.withLock { parked -> Block? in
                guard let block = parked, block.byteCount >= wanted else { return nil }
                parked = nil
                return block
            }
            if let reused { return reused }
        } else {
            let reused = large.withLock { large -> Block? in
                guard let block = large.block, block.byteCount >= wanted else { return nil }
                large = (nil, large.generation + 1)
                return block
            }
            if let reused { return reused }
        }
        return Block(
            base: .allocate(byteCount: wanted, alignment: Self.alignment), byteCount: wanted)
    }

    /// Returns a block taken with `take`: parks it when it is small, else frees it.
    @usableFromInline
    func giveBack(_ block: Block) {
        guard block.byteCount <= Self.parkedBytes else {
            keepForAWhile(block)
            return
        }
        let freed = parked.withLock { parked -> Block? in
            guard let current = parked else {
                parked = block
                return nil
            }
            // Keep the larger block: it serves every diff the smaller one would.
            if current.byteCount >= block.byteCount { return block }
            parked = block
            return current
        }
        freed?.base.deallocate()
    }

    /// Keeps a large block for `largeGrace` (the larger of it and one already kept), then frees
    /// it unless a diff took it in the meantime.
    private func keepForAWhile(_ block: Block) {
        let (freed, generation) = large.withLock { large -> (Block?, Int) in
            let current = large.block
            let kept = current.map { $0.byteCount >= block.byteCount ? $0 : block } ?? block
            large = (kept, large.generation + 1)
            return (current.map { $0.base == kept.base ? block : $0 }, large.generation)
        }
        freed?.base.deallocate()
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.largeGrace) { [self] in
            let expired = large.withLock { large -> Block? in
                guard large.generation == generation, let block = large.block else { return nil }
                large = (nil, large.generation + 1)
                return block
            }
            expired?.base.deallocate()
        }
    }
}
