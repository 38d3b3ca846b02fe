/// The state of patience sorting, which finds a longest increasing subsequence.
///
/// `tails[k]` holds the smallest value that ends an increasing run of length k + 1 so far. A
/// value above every tail extends the longest run in O(1),
/// the common case when most items kept their order; otherwise it replaces the first tail
/// above it, found level by level: among every 4096th tail, then every 64th, then within one
/// block of 64. Each level counts the entries below the value with a branch-free loop the
/// compiler vectorizes (a binary search on shuffled input mispredicts every other step); a
/// top level longer than 256 entries (runs over a million) is binary searched instead.
///
/// `place` returns the length of the longest run ending at each value; a longest run is then
/// read back from those lengths in one backward pass (see `HeckelWorkspace.finish`), so no
/// predecessor links need storing or chasing.
///
/// Complexity: O(log L) per value for a longest run of L (O(1) for values that extend it).
@usableFromInline
struct PatienceTails<Index: FixedWidthInteger & SignedInteger> {
    @usableFromInline let tailValues: UnsafeMutablePointer<Index>
    /// tailValues[64 * k] for each block k.
    @usableFromInline let summary: UnsafeMutablePointer<Index>
    /// tailValues[4096 * k] for each group of 64 blocks.
    @usableFromInline let groups: UnsafeMutablePointer<Index>
    /// The length of the longest run so far.
    @usableFromInline var length = 0

    @inlinable
    static var blockShift: Int { 6 }

    /// Uses `storage`, which has room for `storageCount(for: capacity)` values, to place up to
    /// `capacity` values.
    @inlinable
    init(storage: UnsafeMutablePointer<Index>, capacity: Int) {
        tailValues = storage
        summary = storage + capacity
        groups = summary + (capacity >> Self.blockShift) + 1
    }

    /// The storage needed to place `capacity` values.
    @inlinable
    static func storageCount(for capacity: Int) -> Int {
        capacity + (capacity >> blockShift) + 1 + (capacity >> (2 * blockShift)) + 1
    }

    /// Places `value` (distinct from every value placed before) and returns the length of the
    /// longest increasing run that ends with it.
    @inlinable @inline(__always)
    mutating func place(_ value: Index) -> Int {
        let shift = Self.blockShift
        let blockMask = (1 << shift) - 1
        if length == 0 || value > tailValues[length - 1] {
            tailValues[length] = value
            if length & blockMask == 0 { record(value, at: length) }
            length += 1
            return length
        }
        // The first tail above `value`: in the last block that starts below `value` (block 0
        // if none), or the next block's first tail (or the last tail, which is above `value`).
        // Likewise the last group that starts below `value` holds that block.
        let blocks = ((length - 1) >> shift) + 1
        var block = 0
        if blocks <= 256 {
            block = Swift.max(Self.countBelow(summary, blocks, value) - 1, 0)
        } else {
            let groupCount = ((blocks - 1) >> shift) + 1
            var group = 0
            if groupCount <= 256 {
                group = Swift.max(Self.countBelow(groups, groupCount, value) - 1, 0)
            } else {
                var high = groupCount - 1
                while group < high {
                    let middle = (group + high + 1) >> 1
                    if groups[middle] < value { group = middle } else { high = middle - 1 }
                }
            }
            let firstBlock = group << shift
            let count = Swift.min(blockMask + 1, blocks - firstBlock)
            block = firstBlock + Swift.max(Self.countBelow(summary + firstBlock, count, value) - 1, 0)
        }
        var first = block << shift
        first += Self.countBelow(tailValues + first, Swift.min(blockMask + 1, length - first), value)
        tailValues[first] = value
        if first & blockMask == 0 { record(value, at: first) }
        return first + 1
    }

    /// Keeps the summaries in step with the tail at `index` (a multiple of 64).
    @inlinable @inline(__always)
    func record(_ value: Index, at index: Int) {
        summary[index >> Self.blockShift] = value
        if index & ((1 << (2 * Self.blockShift)) - 1) == 0 { groups[index >> (2 * Self.blockShift)] = value }
    }

    /// How many of the `count` values at `values` are below `value`, without branches.
    @inlinable @inline(__always)
    static func countBelow(_ values: UnsafeMutablePointer<Index>, _ count: Int, _ value: Index) -> Int {
        // values[k] - value is negative exactly when values[k] < value (both are non-negative
        // indexes, so it cannot overflow); its arithmetic shift is then -1, else 0.
        var below: Index = 0
        for offset in 0..<count { below &-= (values[offset] &- value) &>> (Index.bitWidth - 1) }
        return Int(truncatingIfNeeded: below)
    }
}
