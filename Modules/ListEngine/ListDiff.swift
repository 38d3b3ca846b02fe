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
/// Before matching, the common prefix and suffix (items whose identifiers agree at the same
/// distance from the start, or the end, of both arrays) are paired by position with one
/// identifier comparison per item and no hashing, so new posts on top, changes only near the
/// end, and identical arrays cost about one pass over the arrays. The suffix is kept only when
/// none of its identifiers occurs in the middle, so duplicates still pair k-th with k-th.
public enum ListDiff {
    /// The changes that turn `old` into `new`.
    ///
    /// Complexity: O(n) expected time and memory for matching, plus O(c log L) to pick moves
    /// (see the type's documentation).
    @inlinable
    public static func diff<T: ListDiffable>(old: [T], new: [T]) -> ListDiffResult {
        diffTrimmed(old: old, new: new, keepsMatches: false).result
    }

    /// The diff, and the old index of each new item (-1 for inserted ones), for the adapter.
    static func diffAndMatches<T: ListDiffable>(old: [T], new: [T]) -> (ListDiffResult, [Int]) {
        let (result, matches) = diffTrimmed(old: old, new: new, keepsMatches: true)
        return (result, matches ?? [])
    }

    /// The diff with the common prefix and suffix paired by position (see `DiffEnds`) and only
    /// the middle matched; with `keepsMatches`, also the old index of each new item (-1 for
    /// inserted ones).
    @inlinable
    static func diffTrimmed<T: ListDiffable>(old: [T], new: [T], keepsMatches: Bool) -> (
        result: ListDiffResult, matches: [Int]?
    ) {
        let found = old.withUnsafeBufferPointer { oldItems in
            new.withUnsafeBufferPointer { newItems in
                var ends = DiffEnds(old: oldItems, new: newItems)
                if !ends.keepsSuffix(old: oldItems, new: newItems) { ends.dropSuffix() }
                let oldMiddle = ends.prefix..<(oldItems.count - ends.suffix)
                let newMiddle = ends.prefix..<(newItems.count - ends.suffix)
                let middle: DiffChanges
                if oldMiddle.isEmpty || newMiddle.isEmpty {
                    middle = DiffChanges(
                        deletes: Array(0..<oldMiddle.count), inserts: Array(0..<newMiddle.count), updates: [],
                        moves: [], matches: keepsMatches ? Array(repeating: -1, count: newMiddle.count) : nil)
                } else {
                    middle = Self.changes(
                        old: UnsafeBufferPointer(rebasing: oldItems[oldMiddle]),
                        new: UnsafeBufferPointer(rebasing: newItems[newMiddle]), keepsMatches: keepsMatches)
                }
                return middle.placed(in: ends, oldCount: oldItems.count, newCount: newItems.count)
            }
        }
        let result = ListDiffResult(
            deletes: found.deletes, inserts: found.inserts, updates: found.updates,
            moves: found.moves, oldCount: old.count, newCount: new.count,
            index: LazyDiffIndex(old: old, new: new))
        return (result, found.matches)
    }

    /// Heckel matching of whole arrays, without trimming (see `HeckelWorkspace`); with
    /// `keepsMatches`, also the old index of each new item (-1 for inserted ones).
    @inlinable
    static func diffMatching<T: ListDiffable, Index: FixedWidthInteger & SignedInteger>(
        old: [T], new: [T], indexType: Index.Type, keepsMatches: Bool = false
    ) -> (result: ListDiffResult, matches: [Int]?) {
        let changes = old.withUnsafeBufferPointer { oldItems in
            new.withUnsafeBufferPointer { newItems in
                Self.changes(old: oldItems, new: newItems, indexType: indexType, keepsMatches: keepsMatches)
            }
        }
        let result = ListDiffResult(
            deletes: changes.deletes, inserts: changes.inserts, updates: changes.updates,
            moves: changes.moves, oldCount: old.count, newCount: new.count,
            index: LazyDiffIndex(old: old, new: new))
        return (result, changes.matches)
    }

    /// The matching of whole arrays with occurrences keeping `Key`.
    @inlinable
    static func diffMatching<T, Key: HeckelKey, Index: FixedWidthInteger & SignedInteger>(
        old: [T], new: [T], key: Key.Type, indexType: Index.Type, keepsMatches: Bool
    ) -> (result: ListDiffResult, matches: [Int]?) where Key.Item == T {
        let changes = old.withUnsafeBufferPointer { oldItems in
            new.withUnsafeBufferPointer { newItems in
                matchChanges(
                    old: oldItems, new: newItems, key: key, indexType: indexType, keepsMatches: keepsMatches)
            }
        }
        let result = ListDiffResult(
            deletes: changes.deletes, inserts: changes.inserts, updates: changes.updates,
            moves: changes.moves, oldCount: old.count, newCount: new.count,
            index: LazyDiffIndex(old: old, new: new))
        return (result, changes.matches)
    }

    /// The matching's changes for two buffers, with the index type and key their sizes call for.
    @inlinable
    static func changes<T: ListDiffable>(
        old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>, keepsMatches: Bool
    ) -> DiffChanges {
        if old.count < Int(Int32.max) && new.count < Int(Int32.max) {
            return changes(old: old, new: new, indexType: Int32.self, keepsMatches: keepsMatches)
        }
        return changes(old: old, new: new, indexType: Int.self, keepsMatches: keepsMatches)
    }

    /// The matching's changes with indexes of `Index`.
    @inlinable
    static func changes<T: ListDiffable, Index: FixedWidthInteger & SignedInteger>(
        old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>, indexType: Index.Type, keepsMatches: Bool
    ) -> DiffChanges {
        // Identifiers behind a pointer (strings of more than 15 bytes, boxed values) enter the
        // buckets as their 64-bit hash, made once per item in array order; copying them would
        // retain and release their storage, and comparing them would read it, at random places.
        if !_isPOD(T.DiffIdentifier.self) {
            return matchChanges(
                old: old, new: new, key: HeckelHashKey<T>.self, indexType: indexType,
                keepsMatches: keepsMatches)
        }
        // Items no bigger than their identifier are copied whole into the matching's buckets,
        // so content is compared in cache while matching; bigger ones keep only their
        // identifier there and are compared afterwards, from the arrays (copying them would
        // cost more memory traffic than it saves).
        if MemoryLayout<T>.stride <= MemoryLayout<T.DiffIdentifier>.stride {
            return matchChanges(
                old: old, new: new, key: HeckelItemKey<T>.self, indexType: indexType,
                keepsMatches: keepsMatches)
        }
        return matchChanges(
            old: old, new: new, key: HeckelIdentifierKey<T>.self, indexType: indexType,
            keepsMatches: keepsMatches)
    }

    /// Runs the matching's passes over two buffers (see `HeckelWorkspace`).
    @inlinable
    static func matchChanges<T, Key: HeckelKey, Index: FixedWidthInteger & SignedInteger>(
        old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>, key: Key.Type, indexType: Index.Type,
        keepsMatches: Bool
    ) -> DiffChanges where Key.Item == T {
        var workspace = HeckelWorkspace<Key, Index>(oldCount: old.count, newCount: new.count)
        workspace.partition(old: old, new: new)
        workspace.match()
        if Key.identityIsHash && !workspace.checkIdentifiersAndContent(old: old, new: new) {
            // Two different identifiers with equal hashes: match by the identifiers themselves.
            workspace.release()
            return matchChanges(
                old: old, new: new, key: HeckelIdentifierKey<T>.self, indexType: indexType,
                keepsMatches: keepsMatches)
        }
        defer { workspace.release() }
        var matches: [Int]?
        if keepsMatches {
            let newToOld = workspace.newToOld
            matches = (0..<new.count).map { Int(truncatingIfNeeded: newToOld[$0]) }
        }
        let found = workspace.finish(old: old, new: new)
        return DiffChanges(
            deletes: found.deletes, inserts: found.inserts, updates: found.updates, moves: found.moves,
            matches: matches)
    }
}
