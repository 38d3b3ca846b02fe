/// The common prefix and suffix of two arrays: the items whose identifiers agree at the same
/// distance from the start (or the end) of both, with the content changes among them.
///
/// New posts on top leave old as one long common suffix of new; a list that only changed near
/// its end leaves a long common prefix. Both are found with one identifier comparison per item
/// and no hashing, so the matching only sees the middle.
///
/// A common prefix always pairs the k-th copies of every identifier, as the diff promises
/// (both arrays hold the same copies before it). A common suffix does only when the middle
/// holds none of its identifiers (a copy in the middle would be an earlier copy than the one
/// in the suffix); `keepsSuffix` checks that (and that the suffix is long enough to be worth it), and the suffix is dropped when it fails.
@usableFromInline
struct DiffEnds {
    /// The length of the common prefix.
    @usableFromInline var prefix = 0
    /// The length of the common suffix (never overlapping the prefix).
    @usableFromInline var suffix = 0
    /// Indexes (in old, equal to those in new) of prefix items whose content changed, ascending.
    @usableFromInline var prefixUpdates: [Int] = []
    /// Indexes in old of suffix items whose content changed, descending.
    @usableFromInline var suffixUpdates: [Int] = []
    /// Whether the suffix is known to share no identifier with the middle (checked while
    /// scanning it), or nil when `keepsSuffix` must check.
    @usableFromInline var suffixIsIndependent: Bool?

    /// Measures the common prefix and suffix of `old` and `new`. O(prefix + suffix).
    @inlinable
    init<T: ListDiffable>(old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>) {
        let shorter = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < shorter && old[prefix].diffIdentifier == new[prefix].diffIdentifier {
            if !old[prefix].isContentEqual(to: new[prefix]) { prefixUpdates.append(prefix) }
            prefix += 1
        }
        let room = shorter - prefix
        self.prefix = prefix
        // New posts on top (or items removed from the top): if the suffix turns out to be all
        // that is left of the shorter array, the middle is the rest of the longer one, known
        // now, so the check that the suffix is independent of it rides along with the scan.
        let guessedMiddle = old.count + new.count - 2 * shorter
        if T.DiffIdentifier.self == Int.self && guessedMiddle > 0 && guessedMiddle <= room {
            if scanIntegerSuffix(old: old, new: new, room: room, middle: guessedMiddle) { return }
            suffixUpdates = []
        }
        var suffix = 0
        var oldIndex = old.count - 1
        var newIndex = new.count - 1
        while suffix < room && old[oldIndex].diffIdentifier == new[newIndex].diffIdentifier {
            if !old[oldIndex].isContentEqual(to: new[newIndex]) { suffixUpdates.append(oldIndex) }
            suffix += 1
            oldIndex -= 1
            newIndex -= 1
        }
        self.suffix = suffix
    }

    /// Scans the suffix of `Int` identifiers, checking each against the `middle` items of the
    /// longer array after the prefix. True when the suffix covers the rest of the shorter array
    /// (the check is then complete), false to scan again without the check.
    @inlinable
    mutating func scanIntegerSuffix<T: ListDiffable>(
        old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>, room: Int, middle: Int
    ) -> Bool {
        let longer = old.count > new.count ? old : new
        let middleRange = prefix..<(prefix + middle)
        var identifiers = Set<T.DiffIdentifier>(minimumCapacity: middle)
        for index in middleRange { identifiers.insert(longer[index].diffIdentifier) }
        let filter = IntegerFilter(
            identifiers.lazy.map { unsafeBitCast($0, to: Int.self) }, count: identifiers.count)
        defer { filter.release() }
        var suffix = 0
        var oldIndex = old.count - 1
        var newIndex = new.count - 1
        var independent = true
        while suffix < room {
            let identifier = old[oldIndex].diffIdentifier
            guard identifier == new[newIndex].diffIdentifier else { return false }
            if !old[oldIndex].isContentEqual(to: new[newIndex]) { suffixUpdates.append(oldIndex) }
            if filter.mayContain(unsafeBitCast(identifier, to: Int.self)) && identifiers.contains(identifier)
            {
                independent = false
            }
            suffix += 1
            oldIndex -= 1
            newIndex -= 1
        }
        self.suffix = suffix
        suffixIsIndependent = independent
        return true
    }

    /// Forgets the suffix (its items then go through the matching).
    @inlinable
    mutating func dropSuffix() {
        suffix = 0
        suffixUpdates = []
        suffixIsIndependent = nil
    }

    /// Whether the suffix is worth keeping: it is no shorter than the middle (else checking
    /// it would hash about as much as matching it), and no identifier of it occurs in the
    /// middle of `old` or `new` (so pairing it by position pairs the k-th copies).
    ///
    /// O(middle + suffix): the middle's
    /// identifiers go into a set; for `Int` identifiers a one-multiply filter over the suffix
    /// screens out almost every look-up, so the suffix costs about one read per item.
    @inlinable
    func keepsSuffix<T: ListDiffable>(old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>) -> Bool {
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        if suffix == 0 || (oldMiddle.isEmpty && newMiddle.isEmpty) { return true }
        if let suffixIsIndependent { return suffixIsIndependent }
        if oldMiddle.count + newMiddle.count > suffix { return false }
        var middle = Set<T.DiffIdentifier>(minimumCapacity: oldMiddle.count + newMiddle.count)
        for index in oldMiddle { middle.insert(old[index].diffIdentifier) }
        for index in newMiddle { middle.insert(new[index].diffIdentifier) }
        let suffixRange = (old.count - suffix)..<old.count
        if T.DiffIdentifier.self == Int.self {
            let filter = IntegerFilter(
                middle.lazy.map { unsafeBitCast($0, to: Int.self) }, count: middle.count)
            defer { filter.release() }
            for index in suffixRange {
                let identifier = old[index].diffIdentifier
                if filter.mayContain(unsafeBitCast(identifier, to: Int.self)) && middle.contains(identifier) {
                    return false
                }
            }
            return true
        }
        for index in suffixRange where middle.contains(old[index].diffIdentifier) { return false }
        return true
    }
}

/// A one-hash bit filter over a few integers: `mayContain` is false for an integer that was
/// never added, except for about one in 256 of them (fewer while the filter is at its
/// minimum size, which fits in a core's first-level cache).
@usableFromInline
struct IntegerFilter {
    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    /// 64 − log2(the number of bits).
    @usableFromInline let shift: UInt64

    /// A filter holding `values` (`count` of them), with 256 or more bits per value, up to
    /// half a megabyte.
    @inlinable
    init(_ values: some Sequence<Int>, count: Int) {
        var bitsLog2 = 15
        while bitsLog2 < 22 && (1 << bitsLog2) < 256 * count { bitsLog2 += 1 }
        shift = UInt64(64 - bitsLog2)
        let wordCount = (1 << bitsLog2) / 64
        words = .allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
        for value in values {
            let bit = Self.slot(value, shift)
            words[bit >> 6] |= 1 &<< UInt64(bit & 63)
        }
    }

    /// The bit of `value`: the top bits of a Fibonacci hash.
    @inlinable @inline(__always)
    static func slot(_ value: Int, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(value)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// Whether `value` may have been added (false means it certainly was not).
    @inlinable @inline(__always)
    func mayContain(_ value: Int) -> Bool {
        let bit = Self.slot(value, shift)
        return words[bit >> 6] & (1 &<< UInt64(bit & 63)) != 0
    }

    /// Frees the bits. Call once.
    @inlinable
    func release() { words.deallocate() }
}
