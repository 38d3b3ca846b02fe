/// Diffs two arrays of `ListDiffable` items in linear time, with (near) minimal moves.
///
/// ```swift
/// let result = ListDiff.diff(old: shownPosts, new: fetchedPosts)
/// // result.deletes, result.inserts, result.moves, result.updates: one batch update
/// ```
///
/// Matching follows Paul Heckel's 1978 algorithm: a symbol table filled by one pass over old
/// and one over new matches every identifier in O(n) expected time and memory (n = old + new).
/// The table is split by hash into buckets of a few thousand items, each matched on its own,
/// so a million-item diff works in cache like a small one. Duplicate identifiers are distinct
/// occurrences: the k-th in old matches the k-th in new.
///
/// Moves are then chosen with patience sorting: the matched items whose old indexes form one
/// longest increasing subsequence (in new order) stay put, every other matched item is a move.
/// That step is O(c log L) for c matched items and L the subsequence's length, and it makes
/// the number of moves the minimum (matched count − L). An item that only shifted because of
/// inserts or deletes before it is never a move.
///
/// Two arrays with the same identifiers in the same order take a fast path: one pass of
/// identifier and content comparisons, no hashing.
public enum ListDiff {
    /// The changes that turn `old` into `new`.
    ///
    /// Complexity: O(n) expected time and memory for matching, plus O(c log L) to pick moves
    /// (see the type's documentation).
    @inlinable
    public static func diff<T: ListDiffable>(old: [T], new: [T]) -> ListDiffResult {
        if old.count == new.count, let identical = diffSameOrder(old: old, new: new) {
            return identical
        }
        if old.count < Int(Int32.max) && new.count < Int(Int32.max) {
            return diffMatching(old: old, new: new, indexType: Int32.self).result
        }
        return diffMatching(old: old, new: new, indexType: Int.self).result
    }

    /// The result for two arrays of equal length with the same identifiers at every index, or
    /// nil as soon as an index differs. O(n), no hashing.
    @inlinable
    static func diffSameOrder<T: ListDiffable>(old: [T], new: [T]) -> ListDiffResult? {
        var updates: [Int] = []
        let same = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                for index in 0..<old.count {
                    guard old[index].diffIdentifier == new[index].diffIdentifier else { return false }
                    if !old[index].isContentEqual(to: new[index]) { updates.append(index) }
                }
                return true
            }
        }
        guard same else { return nil }
        return ListDiffResult(
            deletes: [], inserts: [], updates: updates, moves: [], oldCount: old.count,
            newCount: new.count, index: LazyDiffIndex(old: old, new: new))
    }

    /// Heckel matching and the results (see `HeckelWorkspace`); with `keepsMatches`, also the
    /// old index of each new item (-1 for inserted ones).
    @inlinable
    static func diffMatching<T: ListDiffable, Index: FixedWidthInteger & SignedInteger>(
        old: [T], new: [T], indexType: Index.Type, keepsMatches: Bool = false
    ) -> (result: ListDiffResult, matches: [Int]?) {
        // Items no bigger than their identifier (type-erased items, for one) are copied whole
        // into the matching's buckets, so content is compared in cache while matching; bigger
        // ones keep only their identifier there and are compared afterwards, from the arrays
        // (copying them would cost more memory traffic than it saves).
        if MemoryLayout<T>.stride <= MemoryLayout<T.DiffIdentifier>.stride {
            return diffMatching(
                old: old, new: new, key: HeckelItemKey<T>.self, indexType: indexType,
                keepsMatches: keepsMatches)
        }
        return diffMatching(
            old: old, new: new, key: HeckelIdentifierKey<T>.self, indexType: indexType,
            keepsMatches: keepsMatches)
    }

    /// The matching with occurrences keeping `Key`.
    @inlinable
    static func diffMatching<T, Key: HeckelKey, Index: FixedWidthInteger & SignedInteger>(
        old: [T], new: [T], key: Key.Type, indexType: Index.Type, keepsMatches: Bool
    ) -> (result: ListDiffResult, matches: [Int]?) where Key.Item == T {
        var matches: [Int]?
        let changes = old.withUnsafeBufferPointer { oldItems in
            new.withUnsafeBufferPointer { newItems in
                var workspace = HeckelWorkspace<Key, Index>(
                    oldCount: oldItems.count, newCount: newItems.count)
                defer { workspace.release() }
                workspace.partition(old: oldItems, new: newItems)
                workspace.match()
                if keepsMatches {
                    let newToOld = workspace.newToOld
                    matches = (0..<newItems.count).map { Int(truncatingIfNeeded: newToOld[$0]) }
                }
                return workspace.finish(old: oldItems, new: newItems)
            }
        }
        let result = ListDiffResult(
            deletes: changes.deletes, inserts: changes.inserts, updates: changes.updates,
            moves: changes.moves, oldCount: old.count, newCount: new.count,
            index: LazyDiffIndex(old: old, new: new))
        return (result, matches)
    }

    /// The diff, and the old index of each new item (-1 for inserted ones), for the adapter.
    static func diffAndMatches<T: ListDiffable>(old: [T], new: [T]) -> (ListDiffResult, [Int]) {
        if old.count == new.count, let identical = diffSameOrder(old: old, new: new) {
            return (identical, Array(0..<new.count))
        }
        let (result, matches) =
            old.count < Int(Int32.max) && new.count < Int(Int32.max)
            ? diffMatching(old: old, new: new, indexType: Int32.self, keepsMatches: true)
            : diffMatching(old: old, new: new, indexType: Int.self, keepsMatches: true)
        return (result, matches ?? [])
    }
}
