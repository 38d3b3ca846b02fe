import ListEngine

/// Checks a `ListDiffResult` against the diff's contract, independently of how ListDiff works.
///
/// The reference matching pairs the k-th occurrence of an identifier in old with its k-th
/// occurrence in new; the fewest moves are computed with a plain longest increasing
/// subsequence. Each broken rule comes back as one line saying what is wrong.
public enum ListDiffContract {
    /// Every way `result` breaks the contract for `old` → `new` (empty when it holds).
    public static func violations<T: ListDiffable>(of result: ListDiffResult, old: [T], new: [T]) -> [String]
    {
        var problems: [String] = []
        if result.oldCount != old.count || result.newCount != new.count {
            problems.append(
                "counts \(result.oldCount)→\(result.newCount), expected \(old.count)→\(new.count)")
            return problems
        }
        problems += indexProblems("deletes", result.deletes, in: old.count)
        problems += indexProblems("inserts", result.inserts, in: new.count)
        problems += indexProblems("updates", result.updates, in: old.count)
        problems += indexProblems("move sources", result.moves.map(\.from).sorted(), in: old.count)
        problems += indexProblems("move targets", result.moves.map(\.to).sorted(), in: new.count)
        if !problems.isEmpty { return problems }
        let movedFrom = Set(result.moves.map(\.from))
        let movedTo = Set(result.moves.map(\.to))
        if !movedFrom.isDisjoint(with: result.deletes) {
            problems.append(
                "old indexes both deleted and moved: \(movedFrom.intersection(result.deletes).sorted())")
        }
        if !movedTo.isDisjoint(with: result.inserts) {
            problems.append(
                "new indexes both inserted and moved to: \(movedTo.intersection(result.inserts).sorted())")
        }

        // The reference matching.
        let matching = referenceMatching(old: old, new: new)
        let expectedDeletes = old.indices.filter { matching.oldToNew[$0] == nil }
        let expectedInserts = new.indices.filter { matching.newToOld[$0] == nil }
        if result.deletes != expectedDeletes {
            problems.append("deletes \(result.deletes), expected \(expectedDeletes)")
        }
        if result.inserts != expectedInserts {
            problems.append("inserts \(result.inserts), expected \(expectedInserts)")
        }
        for move in result.moves where matching.oldToNew[move.from] != move.to {
            problems.append("move \(move) does not pair the k-th copies of an identifier")
        }
        let expectedUpdates = old.indices.filter { index in
            guard let target = matching.oldToNew[index] else { return false }
            return !old[index].isContentEqual(to: new[target])
        }
        if result.updates != expectedUpdates {
            problems.append("updates \(result.updates), expected \(expectedUpdates)")
        }

        // Applying the result as one batch update gives new's identifiers.
        if old.count - result.deletes.count + result.inserts.count != new.count {
            problems.append(
                "\(old.count) - \(result.deletes.count) deletes + \(result.inserts.count) inserts != \(new.count)"
            )
        }
        if problems.isEmpty {
            let applied = apply(result, old: old.map(\.diffIdentifier), new: new.map(\.diffIdentifier))
            let expected = new.map(\.diffIdentifier)
            if applied != expected.map(Optional.some) {
                problems.append(
                    "applying the result gives \(applied.map { $0.map { "\($0)" } ?? "nil" }), expected \(expected)"
                )
            }
        }

        // Moves are (near) minimal.
        let minimum = minimumMoves(matching)
        if Double(result.moves.count) > Double(minimum) * 1.1 {
            problems.append("\(result.moves.count) moves, minimum \(minimum)")
        }

        // With unique identifiers, an identifier is in at most one of deletes/inserts/moves,
        // and the look-ups find every identifier.
        let oldIDs = old.map(\.diffIdentifier)
        let newIDs = new.map(\.diffIdentifier)
        if Set(oldIDs).count == old.count && Set(newIDs).count == new.count {
            let deleted = Set(result.deletes.map { oldIDs[$0] })
            let inserted = Set(result.inserts.map { newIDs[$0] })
            let moved = Set(result.moves.map { oldIDs[$0.from] })
            if !deleted.isDisjoint(with: inserted) || !deleted.isDisjoint(with: moved)
                || !inserted.isDisjoint(with: moved)
            {
                problems.append("an identifier is in more than one of deletes, inserts and moves")
            }
        }
        var firstOld: [T.DiffIdentifier: Int] = [:]
        for (index, id) in oldIDs.enumerated() where firstOld[id] == nil { firstOld[id] = index }
        var firstNew: [T.DiffIdentifier: Int] = [:]
        for (index, id) in newIDs.enumerated() where firstNew[id] == nil { firstNew[id] = index }
        for (index, id) in oldIDs.enumerated() where firstOld[id] == index {
            if result.oldIndex(for: id) != index {
                problems.append(
                    "oldIndex(for: \(id)) = \(String(describing: result.oldIndex(for: id))), expected \(index)"
                )
            }
        }
        for (index, id) in newIDs.enumerated() where firstNew[id] == index {
            if result.newIndex(for: id) != index {
                problems.append(
                    "newIndex(for: \(id)) = \(String(describing: result.newIndex(for: id))), expected \(index)"
                )
            }
        }
        return problems
    }

    /// The pairs of the k-th occurrences of each identifier.
    public static func referenceMatching<T: ListDiffable>(old: [T], new: [T]) -> (
        oldToNew: [Int?], newToOld: [Int?]
    ) {
        var pending: [T.DiffIdentifier: [Int]] = [:]
        for (index, item) in old.enumerated() { pending[item.diffIdentifier, default: []].append(index) }
        var used: [T.DiffIdentifier: Int] = [:]
        var oldToNew = [Int?](repeating: nil, count: old.count)
        var newToOld = [Int?](repeating: nil, count: new.count)
        for (index, item) in new.enumerated() {
            let id = item.diffIdentifier
            let taken = used[id, default: 0]
            if let candidates = pending[id], taken < candidates.count {
                oldToNew[candidates[taken]] = index
                newToOld[index] = candidates[taken]
                used[id] = taken + 1
            }
        }
        return (oldToNew, newToOld)
    }

    /// The fewest moves for a matching: matched items minus a longest increasing subsequence
    /// of their old indexes in new order.
    public static func minimumMoves(_ matching: (oldToNew: [Int?], newToOld: [Int?])) -> Int {
        let sequence = matching.newToOld.compactMap { $0 }
        var tails: [Int] = []
        for value in sequence {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < value { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return sequence.count - tails.count
    }

    /// Applies `result` to old's identifiers as one batch update: drops deleted and moved
    /// items, places inserted items (from new) and moved items at their new indexes, and fills
    /// the remaining slots with the remaining old items in order.
    public static func apply<ID>(_ result: ListDiffResult, old: [ID], new: [ID]) -> [ID?] {
        var slots = [ID?](repeating: nil, count: new.count)
        for index in result.inserts { slots[index] = new[index] }
        for move in result.moves { slots[move.to] = old[move.from] }
        let removed = Set(result.deletes).union(result.moves.map(\.from))
        var remaining = old.indices.filter { !removed.contains($0) }.map { old[$0] }.makeIterator()
        for index in slots.indices where slots[index] == nil {
            slots[index] = remaining.next()
        }
        return slots
    }

    static func indexProblems(_ name: String, _ indexes: [Int], in count: Int) -> [String] {
        var problems: [String] = []
        if let bad = indexes.first(where: { $0 < 0 || $0 >= count }) {
            problems.append("\(name) has index \(bad) outside 0..<\(count)")
        }
        if zip(indexes, indexes.dropFirst()).contains(where: { $0 >= $1 }) {
            problems.append("\(name) are not strictly ascending: \(indexes)")
        }
        return problems
    }
}
