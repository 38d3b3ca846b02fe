/// Where each old index goes in one batch update (deletes, inserts, moves): the shared
/// arithmetic of section and row updates.
enum BatchIndexMapping {
    /// For each old index, its new index, or nil when deleted.
    ///
    /// Kept indexes (neither deleted nor moved) keep their order and fill the new indexes not
    /// taken by inserts or move targets. O(old + new).
    ///
    /// - Throws: `ListUpdateIssue` when an index is out of range or repeated, or the counts
    ///   do not add up.
    static func map(
        oldCount: Int, newCount: Int, deletes: [Int], inserts: [Int], moves: [(from: Int, to: Int)],
        what: String
    ) throws(ListUpdateIssue) -> [Int?] {
        var deleted = [Bool](repeating: false, count: oldCount)
        var movedFrom = [Bool](repeating: false, count: oldCount)
        var taken = [Bool](repeating: false, count: newCount)
        for index in deletes {
            guard (0..<oldCount).contains(index), !deleted[index] else {
                throw ListUpdateIssue(
                    message: "deleted \(what) \(index) is out of 0..<\(oldCount) or listed twice")
            }
            deleted[index] = true
        }
        for index in inserts {
            guard (0..<newCount).contains(index), !taken[index] else {
                throw ListUpdateIssue(
                    message: "inserted \(what) \(index) is out of 0..<\(newCount) or listed twice")
            }
            taken[index] = true
        }
        var mapping = [Int?](repeating: nil, count: oldCount)
        for move in moves {
            guard (0..<oldCount).contains(move.from), !deleted[move.from], !movedFrom[move.from],
                (0..<newCount).contains(move.to), !taken[move.to]
            else {
                throw ListUpdateIssue(
                    message:
                        "moved \(what) \(move.from)→\(move.to) is out of range (\(oldCount) → \(newCount)), "
                        + "deleted, or collides with another change")
            }
            movedFrom[move.from] = true
            taken[move.to] = true
            mapping[move.from] = move.to
        }
        guard oldCount - deletes.count + inserts.count == newCount else {
            throw ListUpdateIssue(
                message: "invalid number of \(what)s: \(oldCount) before, \(deletes.count) deleted and "
                    + "\(inserts.count) inserted should leave \(oldCount - deletes.count + inserts.count), "
                    + "but the data source has \(newCount)")
        }
        var free = 0
        for old in 0..<oldCount where !deleted[old] && !movedFrom[old] {
            while free < newCount && taken[free] { free += 1 }
            guard free < newCount else {
                throw ListUpdateIssue(message: "no room for kept \(what) \(old) after the update")
            }
            mapping[old] = free
            free += 1
        }
        return mapping
    }
}
