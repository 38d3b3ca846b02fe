/// The changes the matching found in a range of two arrays, in that range's indexes, and how
/// they become the whole arrays' changes once the common prefix and suffix are put back.
@usableFromInline
struct DiffChanges {
    /// Indexes in old of the items that are gone, ascending.
    @usableFromInline var deletes: [Int]
    /// Indexes in new of the items that are new, ascending.
    @usableFromInline var inserts: [Int]
    /// Indexes in old of matched items whose content changed, ascending.
    @usableFromInline var updates: [Int]
    /// The moved items, by ascending `to`.
    @usableFromInline var moves: [ListDiffResult.Move]
    /// The old index of each new item (-1 for inserted ones), when asked for.
    @usableFromInline var matches: [Int]?

    @inlinable
    init(deletes: [Int], inserts: [Int], updates: [Int], moves: [ListDiffResult.Move], matches: [Int]?) {
        self.deletes = deletes
        self.inserts = inserts
        self.updates = updates
        self.moves = moves
        self.matches = matches
    }

    /// These changes, found between the prefix and the suffix of `ends`, as changes of the
    /// whole arrays (of `oldCount` and `newCount` items). O(changes + prefix and suffix
    /// updates), plus O(newCount) when matches are kept.
    @inlinable
    func placed(in ends: DiffEnds, oldCount: Int, newCount: Int) -> DiffChanges {
        let offset = ends.prefix
        if offset == 0 && ends.suffix == 0 { return self }
        var updates = ends.prefixUpdates
        updates.reserveCapacity(ends.prefixUpdates.count + self.updates.count + ends.suffixUpdates.count)
        for index in self.updates { updates.append(index + offset) }
        updates.append(contentsOf: ends.suffixUpdates.reversed())
        var matches: [Int]?
        if let middle = self.matches {
            var all = [Int]()
            all.reserveCapacity(newCount)
            all.append(contentsOf: 0..<offset)
            for value in middle { all.append(value < 0 ? value : value + offset) }
            let shift = oldCount - newCount
            for index in (newCount - ends.suffix)..<newCount { all.append(index + shift) }
            matches = all
        }
        return DiffChanges(
            deletes: offset == 0 ? deletes : deletes.map { $0 + offset },
            inserts: offset == 0 ? inserts : inserts.map { $0 + offset }, updates: updates,
            moves: offset == 0
                ? moves : moves.map { ListDiffResult.Move(from: $0.from + offset, to: $0.to + offset) },
            matches: matches)
    }
}
