/// Applies batch-update changes (deletes and move sources in old positions, inserts and move
/// targets in new positions) to an array.
enum BatchUpdate {
    /// Where each old position ends up, or nil per position when deleted; nil overall when the
    /// changes are inconsistent (an index out of range or used twice, or counts that do not
    /// add up). O(old + new).
    static func newPositions(
        oldCount: Int, newCount: Int, deletes: [Int], inserts: [Int], moves: [ListDiffResult.Move]
    ) -> [Int?]? {
        guard oldCount >= 0, newCount >= 0,
            oldCount - deletes.count + inserts.count == newCount
        else { return nil }
        // 0: stays, 1: deleted, 2: moved.
        var oldRole = [UInt8](repeating: 0, count: oldCount)
        var taken = [Bool](repeating: false, count: newCount)
        for index in deletes {
            guard (0..<oldCount).contains(index), oldRole[index] == 0 else { return nil }
            oldRole[index] = 1
        }
        for index in inserts {
            guard (0..<newCount).contains(index), !taken[index] else { return nil }
            taken[index] = true
        }
        var positions = [Int?](repeating: nil, count: oldCount)
        for move in moves {
            guard (0..<oldCount).contains(move.from), oldRole[move.from] == 0,
                (0..<newCount).contains(move.to), !taken[move.to]
            else { return nil }
            oldRole[move.from] = 2
            taken[move.to] = true
            positions[move.from] = move.to
        }
        var slot = 0
        for index in 0..<oldCount where oldRole[index] == 0 {
            while slot < newCount && taken[slot] { slot += 1 }
            guard slot < newCount else { return nil }
            positions[index] = slot
            slot += 1
        }
        return positions
    }

    /// `old` after the changes, with inserted values made by `inserted(newPosition)`; nil when
    /// the changes are inconsistent.
    static func apply<Value>(
        to old: [Value], newCount: Int, deletes: [Int], inserts: [Int], moves: [ListDiffResult.Move],
        inserted: (Int) -> Value
    ) -> [Value]? {
        guard
            let positions = newPositions(
                oldCount: old.count, newCount: newCount, deletes: deletes, inserts: inserts, moves: moves)
        else { return nil }
        var result = [Value?](repeating: nil, count: newCount)
        for (index, position) in positions.enumerated() {
            if let position { result[position] = old[index] }
        }
        for index in inserts { result[index] = inserted(index) }
        var values: [Value] = []
        values.reserveCapacity(newCount)
        for value in result {
            guard let value else { return nil }
            values.append(value)
        }
        return values
    }
}
