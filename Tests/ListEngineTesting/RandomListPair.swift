import Basics

/// Random old/new list pairs for property tests of the diff.
public enum RandomListPair {
    /// A random pair: old has up to `maximumCount` items; new is old with random deletes,
    /// inserts, moves and content updates. With `duplicates`, identifiers repeat in old and
    /// in new (and some copies are added or dropped).
    public static func make(
        maximumCount: Int, duplicates: Bool, using random: inout SplitMix64
    ) -> (old: [DiffTestItem], new: [DiffTestItem]) {
        let count = Int.random(in: 0...maximumCount, using: &random)
        // With duplicates, draw identifiers from a small range so they repeat.
        let idRange = duplicates ? max(1, count / 3) : Int.max / 2
        var old: [DiffTestItem] = []
        var used = Set<Int>()
        while old.count < count {
            let id = duplicates ? Int.random(in: 0..<idRange, using: &random) : old.count * 2
            if !duplicates && used.contains(id) { continue }
            used.insert(id)
            old.append(DiffTestItem(id: id))
        }
        var new = old
        let deleteRate = Double.random(in: 0...0.5, using: &random)
        new.removeAll { _ in Double.random(in: 0..<1, using: &random) < deleteRate }
        let moves = Int.random(in: 0...max(0, new.count / 3), using: &random)
        for _ in 0..<moves where new.count > 1 {
            let item = new.remove(at: Int.random(in: 0..<new.count, using: &random))
            new.insert(item, at: Int.random(in: 0...new.count, using: &random))
        }
        let inserts = Int.random(in: 0...max(1, count / 2), using: &random)
        for index in 0..<inserts {
            let id = duplicates ? Int.random(in: 0...idRange, using: &random) : count * 2 + 1 + index * 2
            new.insert(DiffTestItem(id: id), at: Int.random(in: 0...new.count, using: &random))
        }
        let updateRate = Double.random(in: 0...0.5, using: &random)
        for index in new.indices where Double.random(in: 0..<1, using: &random) < updateRate {
            new[index].version += 1
        }
        if Int.random(in: 0..<10, using: &random) == 0 { new.shuffle(using: &random) }
        return (old, new)
    }
}
