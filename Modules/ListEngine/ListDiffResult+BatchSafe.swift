extension ListDiffResult {
    /// The same changes in the form UIKit-style batch updates accept: no item is both moved
    /// and updated.
    ///
    /// A batch update may not move an item and reload it in the same batch. Here each item
    /// that both moved and changed becomes a delete at its old index and an insert at its new
    /// index (as IGListKit does); every other change is kept. Applied as one batch update, the
    /// result still gives new's identifiers, and its moves stay the fewest for what is left.
    ///
    /// ```swift
    /// let result = ListDiff.diff(old: shown, new: fetched).batchSafe
    /// // Set(result.moves.map(\.from)).isDisjoint(with: result.updates) == true
    /// ```
    ///
    /// `ListAdapter` uses the plain form instead: its reloads carry both indexes, so a moved
    /// and changed item keeps its section controller and gets row-level changes rather than
    /// being rebuilt.
    ///
    /// Complexity: O(old count) when some item both moved and changed, else O(1).
    public var batchSafe: ListDiffResult {
        guard !moves.isEmpty, !updates.isEmpty else { return self }
        var changed = [Bool](repeating: false, count: oldCount)
        for index in updates { changed[index] = true }
        var keptMoves: [Move] = []
        keptMoves.reserveCapacity(moves.count)
        var split: [Move] = []
        for move in moves {
            if changed[move.from] {
                split.append(move)
                changed[move.from] = false
            } else {
                keptMoves.append(move)
            }
        }
        guard !split.isEmpty else { return self }
        let splitDeletes = split.map(\.from).sorted()
        return ListDiffResult(
            deletes: Self.merged(deletes, splitDeletes), inserts: Self.merged(inserts, split.map(\.to)),
            updates: updates.filter { changed[$0] }, moves: keptMoves, oldCount: oldCount,
            newCount: newCount, index: index)
    }

    /// Two ascending lists of distinct indexes as one ascending list.
    static func merged(_ first: [Int], _ second: [Int]) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(first.count + second.count)
        var left = 0
        var right = 0
        while left < first.count && right < second.count {
            if first[left] < second[right] {
                merged.append(first[left])
                left += 1
            } else {
                merged.append(second[right])
                right += 1
            }
        }
        merged.append(contentsOf: first[left...])
        merged.append(contentsOf: second[right...])
        return merged
    }
}
