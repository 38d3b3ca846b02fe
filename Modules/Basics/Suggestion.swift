/// Did-you-mean suggestions by edit distance, for messages about names that were not found.
public enum Suggestion {
    /// The candidate closest to `word` if it is close enough to be a likely typo: an edit
    /// distance of at most a third of the word's length (at least 1, at most 4), or one name
    /// extending the other (`feed` for `feedPolicy`). Case is ignored. Ties go to the earlier
    /// candidate in sorted order.
    ///
    /// Complexity: O(c · n · m) for c candidates of length m and a word of length n.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        let bytes = Array(lowered.utf8)
        let limit = min(4, max(1, bytes.count / 3))
        var best: (name: String, score: Int)?
        for candidate in candidates.sorted() where candidate != word {
            let other = candidate.lowercased()
            var score = editDistance(bytes, Array(other.utf8), limit: limit)
            if score > limit, bytes.count >= 3, other.hasPrefix(lowered) || lowered.hasPrefix(other) {
                score = limit + abs(other.count - lowered.count)
            } else if score > limit {
                continue
            }
            if score < (best?.score ?? .max) { best = (candidate, score) }
        }
        return best?.name
    }

    /// `; did you mean 'x'?` or the empty string.
    public static func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a swap of two
    /// neighbouring characters as one edit (optimal string alignment), giving up early (returning
    /// `limit + 1`) once it must exceed `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
                rowMinimum = min(rowMinimum, best)
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
