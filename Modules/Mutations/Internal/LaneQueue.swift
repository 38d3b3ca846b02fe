/// One lane's tokens, oldest first, with O(1) removal of the head.
struct LaneQueue: Sendable {
    private var tokens: [MutationToken] = []
    private var start = 0

    var first: MutationToken? { start < tokens.count ? tokens[start] : nil }
    var isEmpty: Bool { start >= tokens.count }

    /// Inserts by sequence: an append for the newest, a binary search otherwise.
    mutating func insert(
        _ token: MutationToken, sequence: Int64, sequenceOf: (MutationToken) -> Int64
    ) {
        if let last = tokens.last, start < tokens.count, sequenceOf(last) > sequence {
            var low = start
            var high = tokens.count
            while low < high {
                let middle = (low + high) / 2
                if sequenceOf(tokens[middle]) < sequence { low = middle + 1 } else { high = middle }
            }
            tokens.insert(token, at: low)
        } else {
            tokens.append(token)
        }
    }

    mutating func remove(_ token: MutationToken) {
        if first == token {
            start += 1
            if start > 32, start * 2 > tokens.count {
                tokens.removeFirst(start)
                start = 0
            }
        } else if let index = tokens[start...].firstIndex(of: token) {
            tokens.remove(at: index)
        }
    }
}
