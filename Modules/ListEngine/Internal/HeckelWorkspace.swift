/// One occurrence of an item, copied out of the old or new array into its partition.
@usableFromInline
struct HeckelOccurrence<Key: HeckelKey, Index: FixedWidthInteger & SignedInteger> {
    @usableFromInline let key: Key
    /// The occurrence's index in its array.
    @usableFromInline let index: Index
    /// The bottom 32 bits of the identifier's hash, which pick its slot in its bucket's table
    /// (the top 32 picked the bucket).
    @usableFromInline let hash: UInt32

    @inlinable
    init(key: Key, index: Index, hash: UInt32) {
        self.key = key
        self.index = index
        self.hash = hash
    }
}

/// One identifier of old in a partition's symbol table. Fields are positions in the
/// occurrence buffer, or -1.
@usableFromInline
struct HeckelSymbol<Index: FixedWidthInteger & SignedInteger> {
    /// The first occurrence in old (also where the identifier is read from).
    @usableFromInline var firstOld: Index
    /// The last occurrence in old seen so far, where the next duplicate is chained.
    @usableFromInline var lastOld: Index
    /// The next occurrence in old not yet matched by one in new.
    @usableFromInline var cursor: Index

    @inlinable
    init(firstOld: Index) {
        self.firstOld = firstOld
        self.lastOld = firstOld
        self.cursor = firstOld
    }
}

/// The working memory and passes of one diff: Heckel's matching, partitioned by hash so each
/// symbol table fits in cache, then the results in index order.
///
/// 1. `partition` hashes every identifier once and copies each occurrence into one of P
///    buckets by the hash's top 32 bits, in one pass per array into buckets sized for a fair
///    hash (falling back to an exact two-pass counting sort when a bucket overflows, as with
///    many duplicates). Buckets keep array order; all occurrences of an identifier share one.
/// 2. `match` runs Heckel's passes bucket by bucket with a small open-addressing table: old's
///    occurrences enter it (duplicates chained in order), then each occurrence in new takes
///    the next unmatched old occurrence of its identifier, so the k-th copy in new matches
///    the k-th in old. Small items are copied whole into their occurrences (`HeckelItemKey`)
///    and each matched pair's content is compared right there, in cache. Identifiers behind
///    a pointer (long strings) are matched by their 64-bit hash alone (`HeckelHashKey`).
/// 3. For hashed identities, `checkIdentifiersAndContent` checks every matched pair's
///    identifiers (and content) in new's order.
/// 4. `finish` walks new once (inserts, content checks, patience sorting for the moves), then
///    reads deletes and updates off two bitmaps over old.
///
/// O(n) time and memory for n = old + new items (plus O(log L) per item that breaks the
/// longest kept run). P grows with n so one bucket holds about `bucketSize` occurrences and
/// its working set stays a few hundred KB, in cache, whatever the list's length.
@usableFromInline
struct HeckelWorkspace<Key: HeckelKey, Index: FixedWidthInteger & SignedInteger> {
    @usableFromInline typealias Item = Key.Item
    @usableFromInline typealias Occurrence = HeckelOccurrence<Key, Index>

    @usableFromInline let oldCount: Int
    @usableFromInline let newCount: Int
    @usableFromInline let partitionCount: Int
    /// Occurrences each bucket has room for in the one-pass layout.
    @usableFromInline let oldBucketCapacity: Int
    @usableFromInline let newBucketCapacity: Int
    @usableFromInline let block: DiffScratch.Block
    /// Region A: the occurrences, later the patience-sorting arrays.
    @usableFromInline let occurrences: UnsafeMutablePointer<Occurrence>
    /// Region B: the matched old index per new index, or -1.
    @usableFromInline let newToOld: UnsafeMutablePointer<Index>
    /// Region C: a bit per old index, set when it is matched...
    @usableFromInline let matched: UnsafeMutablePointer<UInt64>
    /// ... and when its content changed.
    @usableFromInline let updated: UnsafeMutablePointer<UInt64>
    @usableFromInline let bitmapWords: Int
    /// Per bucket: where its old occurrences start and end, then its new ones.
    @usableFromInline let oldStart: UnsafeMutablePointer<Int>
    @usableFromInline let oldEnd: UnsafeMutablePointer<Int>
    @usableFromInline let newStart: UnsafeMutablePointer<Int>
    @usableFromInline let newEnd: UnsafeMutablePointer<Int>
    /// The number of matched pairs.
    @usableFromInline var commonCount = 0

    /// The occurrences per bucket the partitioning aims at.
    @inlinable
    static var bucketSize: Int { 4096 }

    @inlinable
    static func aligned(_ bytes: Int) -> Int {
        let alignment = DiffScratch.alignment
        return (bytes + alignment - 1) / alignment * alignment
    }

    @inlinable
    init(oldCount: Int, newCount: Int) {
        self.oldCount = oldCount
        self.newCount = newCount
        // Any count of buckets (not a power of two), so every bucket holds about
        // `bucketSize` occurrences whatever the list's length.
        let partitions = Swift.max(1, (Swift.max(oldCount, newCount) + Self.bucketSize - 1) / Self.bucketSize)
        partitionCount = partitions
        if partitions == 1 {
            oldBucketCapacity = oldCount
            newBucketCapacity = newCount
        } else {
            // Room for about 12 standard deviations above a fair share.
            let oldShare = (oldCount + partitions - 1) / partitions
            let newShare = (newCount + partitions - 1) / partitions
            oldBucketCapacity = oldShare + oldShare / 8 + 64
            newBucketCapacity = newShare + newShare / 8 + 64
        }
        let occurrenceCount = partitions * (oldBucketCapacity + newBucketCapacity)
        let indexSize = MemoryLayout<Index>.stride
        let lisBytes =
            Self.aligned((PatienceTails<Index>.storageCount(for: newCount) + newCount) * indexSize)
            + (newCount + 63) / 64 * MemoryLayout<UInt64>.stride
        let regionA = Self.aligned(
            Swift.max(occurrenceCount * MemoryLayout<Occurrence>.stride, Self.aligned(lisBytes)))
        let regionB = Self.aligned(newCount * indexSize)
        bitmapWords = (oldCount + 63) / 64
        let regionC = Self.aligned(2 * bitmapWords * MemoryLayout<UInt64>.stride)
        block = DiffScratch.shared.take(byteCount: regionA + regionB + regionC)
        occurrences = block.base.bindMemory(to: Occurrence.self, capacity: occurrenceCount)
        newToOld = (block.base + regionA).bindMemory(to: Index.self, capacity: newCount)
        newToOld.initialize(repeating: -1, count: newCount)
        matched = (block.base + regionA + regionB).bindMemory(to: UInt64.self, capacity: 2 * bitmapWords)
        matched.initialize(repeating: 0, count: 2 * bitmapWords)
        updated = matched + bitmapWords
        let bounds = UnsafeMutablePointer<Int>.allocate(capacity: 4 * partitions)
        bounds.initialize(repeating: 0, count: 4 * partitions)
        oldStart = bounds
        oldEnd = bounds + partitions
        newStart = bounds + 2 * partitions
        newEnd = bounds + 3 * partitions
    }

    /// Gives the memory back. Call once, after `finish`.
    @inlinable
    func release() {
        oldStart.deallocate()
        DiffScratch.shared.giveBack(block)
    }

    /// The bucket of a platform hash, from its top 32 bits: ⌊bits × P / 2^32⌋. (The bottom 32
    /// bits, independent of these, pick the slot within the bucket's table.)
    @inlinable @inline(__always)
    func bucket(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: ((hash &>> 32) &* UInt64(partitionCount)) &>> 32)
    }

    /// Copies every occurrence into its bucket (see the type's comment).
    @inlinable
    mutating func partition(old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>) {
        if !partitionOnePass(old: old, new: new) {
            deinitializeOccurrences()
            partitionCounting(old: old, new: new)
        }
    }

    /// The one-pass partitioning into buckets sized for a fair hash; false if one overflows
    /// (then only the buckets' recorded ranges are initialized).
    @inlinable
    mutating func partitionOnePass(old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>) -> Bool {
        let newBase = partitionCount * oldBucketCapacity
        for partition in 0..<partitionCount {
            oldStart[partition] = partition * oldBucketCapacity
            oldEnd[partition] = oldStart[partition]
            newStart[partition] = newBase + partition * newBucketCapacity
            newEnd[partition] = newStart[partition]
        }
        for index in 0..<oldCount {
            let key = Key(old[index])
            let hash = key.hashBits
            let partition = bucket(hash)
            let position = oldEnd[partition]
            if position == oldStart[partition] + oldBucketCapacity { return false }
            (occurrences + position).initialize(
                to: Occurrence(
                    key: key, index: Index(truncatingIfNeeded: index), hash: UInt32(truncatingIfNeeded: hash))
            )
            oldEnd[partition] = position + 1
        }
        for index in 0..<newCount {
            let key = Key(new[index])
            let hash = key.hashBits
            let partition = bucket(hash)
            let position = newEnd[partition]
            if position == newStart[partition] + newBucketCapacity { return false }
            (occurrences + position).initialize(
                to: Occurrence(
                    key: key, index: Index(truncatingIfNeeded: index), hash: UInt32(truncatingIfNeeded: hash))
            )
            newEnd[partition] = position + 1
        }
        return true
    }

    /// The exact partitioning: counts bucket sizes first (hashing once, into a side buffer),
    /// then copies each occurrence into its place.
    @inlinable
    mutating func partitionCounting(old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>) {
        let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: Swift.max(oldCount + newCount, 1))
        defer { hashes.deallocate() }
        for partition in 0..<partitionCount {
            oldEnd[partition] = 0
            newEnd[partition] = 0
        }
        for index in 0..<oldCount {
            let hash = Key(old[index]).hashBits
            hashes[index] = hash
            oldEnd[bucket(hash)] += 1
        }
        for index in 0..<newCount {
            let hash = Key(new[index]).hashBits
            hashes[oldCount + index] = hash
            newEnd[bucket(hash)] += 1
        }
        // Counts → starts; the ends then serve as cursors.
        var position = 0
        for partition in 0..<partitionCount {
            oldStart[partition] = position
            position += oldEnd[partition]
            oldEnd[partition] = oldStart[partition]
        }
        for partition in 0..<partitionCount {
            newStart[partition] = position
            position += newEnd[partition]
            newEnd[partition] = newStart[partition]
        }
        for index in 0..<oldCount {
            let hash = hashes[index]
            let partition = bucket(hash)
            let target = oldEnd[partition]
            (occurrences + target).initialize(
                to: Occurrence(
                    key: Key(old[index]), index: Index(truncatingIfNeeded: index),
                    hash: UInt32(truncatingIfNeeded: hash)))
            oldEnd[partition] = target + 1
        }
        for index in 0..<newCount {
            let hash = hashes[oldCount + index]
            let partition = bucket(hash)
            let target = newEnd[partition]
            (occurrences + target).initialize(
                to: Occurrence(
                    key: Key(new[index]), index: Index(truncatingIfNeeded: index),
                    hash: UInt32(truncatingIfNeeded: hash)))
            newEnd[partition] = target + 1
        }
    }

    /// Deinitializes every bucket's occurrences (and empties the buckets).
    @inlinable
    func deinitializeOccurrences() {
        for partition in 0..<partitionCount {
            (occurrences + oldStart[partition]).deinitialize(count: oldEnd[partition] - oldStart[partition])
            (occurrences + newStart[partition]).deinitialize(count: newEnd[partition] - newStart[partition])
            oldEnd[partition] = oldStart[partition]
            newEnd[partition] = newStart[partition]
        }
    }

    /// Matches new's occurrences to old's, bucket by bucket (see the type's comment), then
    /// releases the occurrences.
    @inlinable
    mutating func match() {
        var largest = 0
        var oldPositions = 0
        for partition in 0..<partitionCount {
            largest = Swift.max(largest, oldEnd[partition] - oldStart[partition])
            oldPositions = Swift.max(oldPositions, oldEnd[partition])
        }
        // Tables a quarter full: short probes, and the same load in every bucket.
        let capacity = Swift.max(8, 4 * largest)
        let slots = UnsafeMutablePointer<Index>.allocate(capacity: capacity)
        let symbols = UnsafeMutablePointer<HeckelSymbol<Index>>.allocate(capacity: Swift.max(largest, 1))
        // The next old occurrence (by position) with the same identifier; made on the first
        // duplicate.
        var nextOld: UnsafeMutablePointer<Index>?
        defer {
            slots.deallocate()
            symbols.deallocate()
            nextOld?.deallocate()
        }
        let occurrences = occurrences
        var common = 0
        for partition in 0..<partitionCount {
            let oldRange = oldStart[partition]..<oldEnd[partition]
            let newRange = newStart[partition]..<newEnd[partition]
            if oldRange.isEmpty || newRange.isEmpty { continue }
            let size = Swift.max(8, 4 * oldRange.count)
            slots.initialize(repeating: 0, count: size)
            var symbolCount = 0

            /// The slot for `occurrence` and its symbol's index, or -1 and where it would go.
            @inline(__always) func find(_ occurrence: Occurrence) -> (slot: Int, symbol: Int) {
                var slot = Int(truncatingIfNeeded: (UInt64(occurrence.hash) &* UInt64(size)) &>> 32)
                while true {
                    let stored = Int(truncatingIfNeeded: slots[slot])
                    if stored == 0 { return (slot, -1) }
                    let key = occurrences[Int(truncatingIfNeeded: symbols[stored - 1].firstOld)]
                    if key.hash == occurrence.hash && key.key.identity == occurrence.key.identity {
                        return (slot, stored - 1)
                    }
                    slot += 1
                    if slot == size { slot = 0 }
                }
            }

            for position in oldRange {
                let (slot, symbol) = find(occurrences[position])
                let here = Index(truncatingIfNeeded: position)
                if symbol < 0 {
                    (symbols + symbolCount).initialize(to: HeckelSymbol(firstOld: here))
                    symbolCount += 1
                    slots[slot] = Index(truncatingIfNeeded: symbolCount)
                } else {
                    let chain: UnsafeMutablePointer<Index>
                    if let nextOld {
                        chain = nextOld
                    } else {
                        chain = .allocate(capacity: oldPositions)
                        chain.initialize(repeating: -1, count: oldPositions)
                        nextOld = chain
                    }
                    chain[Int(truncatingIfNeeded: symbols[symbol].lastOld)] = here
                    symbols[symbol].lastOld = here
                }
            }
            for position in newRange {
                let occurrence = occurrences[position]
                let symbol = find(occurrence).symbol
                guard symbol >= 0 else { continue }
                let cursor = Int(truncatingIfNeeded: symbols[symbol].cursor)
                guard cursor >= 0 else { continue }
                let oldIndex = Int(truncatingIfNeeded: occurrences[cursor].index)
                newToOld[Int(truncatingIfNeeded: occurrence.index)] = Index(truncatingIfNeeded: oldIndex)
                matched[oldIndex >> 6] |= 1 &<< UInt64(oldIndex & 63)
                if Key.holdsItem && !occurrences[cursor].key.isContentEqual(to: occurrence.key) {
                    updated[oldIndex >> 6] |= 1 &<< UInt64(oldIndex & 63)
                }
                symbols[symbol].cursor = nextOld.map { $0[cursor] } ?? -1
                common += 1
            }
        }
        commonCount = common
        deinitializeOccurrences()
    }

    /// For keys whose identities are hashes: whether every matched pair's identifiers are
    /// equal, read from the arrays in new's order. Also marks the pairs whose content changed.
    /// False means two different identifiers had equal hashes; the diff must then be made
    /// again with a key that keeps the identifiers.
    @inlinable
    func checkIdentifiersAndContent(old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>) -> Bool {
        for index in 0..<newCount {
            let value = newToOld[index]
            if value < 0 { continue }
            let oldIndex = Int(truncatingIfNeeded: value)
            if old[oldIndex].diffIdentifier != new[index].diffIdentifier { return false }
            if !old[oldIndex].isContentEqual(to: new[index]) {
                updated[oldIndex >> 6] |= 1 &<< UInt64(oldIndex & 63)
            }
        }
        return true
    }

    /// Inserts, updates, moves and deletes from the matching (see the type's comment).
    @inlinable
    func finish(old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>) -> (
        deletes: [Int], inserts: [Int], updates: [Int], moves: [ListDiffResult.Move]
    ) {
        // Region A held the occurrences, all deinitialized by `match`; it now holds the
        // patience-sorting arrays, the length of the longest run ending at each matched item,
        // and a bit per new index marking the members of the chosen longest run.
        let tailsCount = PatienceTails<Index>.storageCount(for: newCount)
        let storage = block.base.bindMemory(to: Index.self, capacity: tailsCount + newCount)
        var tails = PatienceTails(storage: storage, capacity: newCount)
        let runLength = storage + tailsCount
        let keptWords = (newCount + 63) / 64
        let kept = (block.base + Self.aligned((tailsCount + newCount) * MemoryLayout<Index>.stride))
            .bindMemory(to: UInt64.self, capacity: keptWords)
        kept.initialize(repeating: 0, count: keptWords)

        // Inserts, and content checks unless matching did them, in a loop of their own: when
        // items moved, each check reads old at a random place, and a short loop lets the
        // processor have many such reads in flight at once.
        var inserts: [Int] = []
        inserts.reserveCapacity(newCount - commonCount)
        if Key.holdsItem || Key.identityIsHash {
            // Content was compared while matching, or by `checkIdentifiersAndContent`.
            for index in 0..<newCount where newToOld[index] < 0 { inserts.append(index) }
        } else {
            for index in 0..<newCount {
                let value = newToOld[index]
                if value < 0 {
                    inserts.append(index)
                    continue
                }
                let oldIndex = Int(truncatingIfNeeded: value)
                if !old[oldIndex].isContentEqual(to: new[index]) {
                    updated[oldIndex >> 6] |= 1 &<< UInt64(oldIndex & 63)
                }
            }
        }
        for index in 0..<newCount {
            let value = newToOld[index]
            if value >= 0 { runLength[index] = Index(truncatingIfNeeded: tails.place(value)) }
        }
        // A longest run, read back to front: the last item whose run length is the one wanted
        // and whose value is below the member after it. (An item with run length k has, before
        // it, an item with run length k - 1 and a smaller value, so this never gets stuck.)
        var wanted = tails.length
        var ceiling = Index.max
        var index = newCount - 1
        while wanted > 0 && index >= 0 {
            let value = newToOld[index]
            if value >= 0 && Int(truncatingIfNeeded: runLength[index]) == wanted && value < ceiling {
                kept[index >> 6] |= 1 &<< UInt64(index & 63)
                wanted -= 1
                ceiling = value
            }
            index -= 1
        }
        var moves: [ListDiffResult.Move] = []
        moves.reserveCapacity(commonCount - tails.length)
        for word in 0..<keptWords {
            var candidates = ~kept[word]
            let base = word << 6
            if newCount - base < 64 { candidates &= ~(~0 &<< UInt64(newCount - base)) }
            while candidates != 0 {
                let index = base + candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                let value = newToOld[index]
                if value >= 0 {
                    moves.append(ListDiffResult.Move(from: Int(truncatingIfNeeded: value), to: index))
                }
            }
        }
        var deletes: [Int] = []
        deletes.reserveCapacity(oldCount - commonCount)
        var updates: [Int] = []
        for word in 0..<bitmapWords {
            let base = word << 6
            // Bits past the last old index read as matched, so they are never deletes.
            let tail: UInt64 = oldCount - base >= 64 ? 0 : ~0 &<< UInt64(oldCount - base)
            var gone = ~(matched[word] | tail)
            while gone != 0 {
                deletes.append(base + gone.trailingZeroBitCount)
                gone &= gone &- 1
            }
            var changed = updated[word]
            while changed != 0 {
                updates.append(base + changed.trailingZeroBitCount)
                changed &= changed &- 1
            }
        }
        return (deletes, inserts, updates, moves)
    }
}
