import Synchronization

/// Scratch memory for diffs: one small workspace kept between diffs, large ones given back.
///
/// A block of at most `parkedBytes` (enough for a diff of about 10,000 items) stays parked
/// for the next diff, so the frequent small diffs of a screen reuse warm memory. Larger blocks
/// are freed as soon as their diff ends, so a process that once diffed a million items does
/// not keep tens of megabytes it may never use again (the next large diff pays the operating
/// system's page faults for fresh memory instead). Concurrent diffs each get their own block.
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

    private let parked = Mutex<Block?>(nil)

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
        }
        return Block(
            base: .allocate(byteCount: wanted, alignment: Self.alignment), byteCount: wanted)
    }

    /// Returns a block taken with `take`: parks it when it is small, else frees it.
    @usableFromInline
    func giveBack(_ block: Block) {
        guard block.byteCount <= Self.parkedBytes else {
            block.base.deallocate()
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
}
