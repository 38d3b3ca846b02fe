import Synchronization

/// The look-ups a `ListDiffResult` answers: an identifier's first index in old and in new.
@usableFromInline
protocol ListDiffIndex: AnyObject, Sendable {
    func oldIndex(forIdentifier identifier: some Hashable) -> Int?
    func newIndex(forIdentifier identifier: some Hashable) -> Int?
}

/// The look-ups of one diff, from the two arrays it compared (shared, copy-on-write: keeping
/// them costs nothing). The identifier table is built by the first look-up, in O(n), so a
/// diff whose look-ups nobody uses never pays for them.
@usableFromInline
final class LazyDiffIndex<Item: ListDiffable>: ListDiffIndex, @unchecked Sendable {
    // Invariant for @unchecked Sendable: `old` and `new` are immutable array values; the index
    // only reads `diffIdentifier`, which `ListDiffable` requires to be a pure read that any
    // task may make. The lazily built table is only touched inside the mutex.
    @usableFromInline let old: [Item]
    @usableFromInline let new: [Item]
    let table = Mutex<LazyTable>(LazyTable())

    /// The identifier table, built on first use.
    struct LazyTable: @unchecked Sendable {
        // Invariant for @unchecked Sendable: only read or written inside the mutex, and holds
        // identifier values (pure, as `ListDiffable` requires).
        var indexes: [Item.DiffIdentifier: (old: Int, new: Int)]?
    }

    @inlinable
    init(old: [Item], new: [Item]) {
        self.old = old
        self.new = new
    }

    func firstIndexes(of identifier: some Hashable) -> (old: Int, new: Int)? {
        guard let id = identifier as? Item.DiffIdentifier else { return nil }
        return table.withLock { table in
            if let indexes = table.indexes { return indexes[id] }
            var built: [Item.DiffIdentifier: (old: Int, new: Int)] = [:]
            built.reserveCapacity(Swift.max(old.count, new.count))
            for (index, item) in old.enumerated() where built[item.diffIdentifier] == nil {
                built[item.diffIdentifier] = (index, -1)
            }
            for (index, item) in new.enumerated() {
                let found = built[item.diffIdentifier] ?? (-1, -1)
                if found.new < 0 { built[item.diffIdentifier] = (found.old, index) }
            }
            table.indexes = built
            return built[id]
        }
    }

    @usableFromInline
    func oldIndex(forIdentifier identifier: some Hashable) -> Int? {
        firstIndexes(of: identifier).flatMap { $0.old >= 0 ? $0.old : nil }
    }

    @usableFromInline
    func newIndex(forIdentifier identifier: some Hashable) -> Int? {
        firstIndexes(of: identifier).flatMap { $0.new >= 0 ? $0.new : nil }
    }
}
