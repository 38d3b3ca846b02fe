import Synchronization

/// Scratch memory for large diffs, kept between diffs so a large diff does not pay the
/// operating system's page faults for fresh memory every time (about 2 µs per 4 KiB page on a
/// virtual machine, which is a third of the time of a million-item diff).
///
/// Blocks under `pooledBytes` are allocated and freed directly (the allocator reuses them
/// cheaply). Of larger ones, one block of at most `parkedBytes` stays parked for the next
/// diff; concurrent diffs each get their own block.
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

    /// Blocks smaller than this are not pooled.
    static let pooledBytes = 1 << 20
    /// The largest block kept parked (enough for a diff of about two million items).
    static let parkedBytes = 128 << 20
    /// The alignment of every block and region.
    @usableFromInline static let alignment = 64

    private let parked = Mutex<Block?>(nil)

    /// A block of at least `byteCount` bytes; give it back with `giveBack`.
    @usableFromInline
    func take(byteCount: Int) -> Block {
        let wanted = Swift.max(byteCount, Self.alignment)
        if wanted >= Self.pooledBytes {
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

    /// Returns a block taken with `take`: parks it when it is worth keeping, else frees it.
    @usableFromInline
    func giveBack(_ block: Block) {
        guard block.byteCount >= Self.pooledBytes, block.byteCount <= Self.parkedBytes else {
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
