/// What changed between two arrays of `ListDiffable` items, valid to apply as one batch update.
///
/// Apply it the way a batch update works: `deletes` and each move's `from` are indexes in the
/// old array; `inserts` and each move's `to` are indexes in the new array. Removing the deleted
/// and moved items from old, then placing the inserted items (from new) and the moved items at
/// their new indexes, with the remaining items keeping their relative order in the gaps, gives
/// new's identifier sequence. An occurrence is in at most one of `deletes`, `inserts` and
/// `moves`; `updates` lists the matched items whose content changed, moved or not.
///
/// Also answers look-ups from an identifier to its index in old or new: the first look-up
/// builds a table in O(n), later ones take O(1) expected time.
public struct ListDiffResult: Sendable, Equatable, CustomStringConvertible {
    /// An item that changed position beyond what the inserts and deletes explain.
    public struct Move: Hashable, Sendable, CustomStringConvertible {
        /// Its index in the old array.
        public let from: Int
        /// Its index in the new array.
        public let to: Int

        /// Makes a move from old index `from` to new index `to`.
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }

        /// A one-line summary, for logs and test failures.
        public var description: String { "\(from)→\(to)" }
    }

    /// Indexes in old of the items that are gone, ascending.
    public let deletes: [Int]
    /// Indexes in new of the items that are new, ascending.
    public let inserts: [Int]
    /// Indexes in old of matched items whose content changed, ascending.
    public let updates: [Int]
    /// The matched items outside one longest run that kept its order, by ascending `to`.
    public let moves: [Move]
    /// The number of items in the old array.
    public let oldCount: Int
    /// The number of items in the new array.
    public let newCount: Int

    @usableFromInline let index: any ListDiffIndex

    @inlinable
    init(
        deletes: [Int], inserts: [Int], updates: [Int], moves: [Move], oldCount: Int, newCount: Int,
        index: any ListDiffIndex
    ) {
        self.deletes = deletes
        self.inserts = inserts
        self.updates = updates
        self.moves = moves
        self.oldCount = oldCount
        self.newCount = newCount
        self.index = index
    }

    /// Whether anything was deleted, inserted, moved or updated.
    public var hasChanges: Bool {
        !deletes.isEmpty || !inserts.isEmpty || !moves.isEmpty || !updates.isEmpty
    }

    /// The index in old of the first item with `identifier`, or nil if old has none.
    public func oldIndex<ID: Hashable>(for identifier: ID) -> Int? {
        index.oldIndex(forIdentifier: identifier)
    }

    /// The index in new of the first item with `identifier`, or nil if new has none.
    public func newIndex<ID: Hashable>(for identifier: ID) -> Int? {
        index.newIndex(forIdentifier: identifier)
    }

    /// Compares the changes, not the look-up tables.
    public static func == (lhs: ListDiffResult, rhs: ListDiffResult) -> Bool {
        lhs.oldCount == rhs.oldCount && lhs.newCount == rhs.newCount && lhs.deletes == rhs.deletes
            && lhs.inserts == rhs.inserts && lhs.updates == rhs.updates && lhs.moves == rhs.moves
    }

    /// A one-line summary, for logs and test failures.
    public var description: String {
        "ListDiffResult(\(oldCount) → \(newCount): deletes \(deletes), inserts \(inserts), "
            + "moves \(moves), updates \(updates))"
    }
}
