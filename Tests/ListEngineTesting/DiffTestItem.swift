import ListEngine

/// A diffable item for tests: an identifier and a content version.
public struct DiffTestItem: ListDiffable, Hashable, Sendable, CustomStringConvertible {
    /// The identity.
    public var id: Int
    /// The content: items with the same id and different versions differ in content.
    public var version: Int

    /// Makes an item.
    public init(id: Int, version: Int = 0) {
        self.id = id
        self.version = version
    }

    /// The item's identity.
    public var diffIdentifier: Int { id }

    /// Whether the versions are equal.
    public func isContentEqual(to other: DiffTestItem) -> Bool { version == other.version }

    /// A one-line summary, for logs and test failures.
    public var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
}

extension Array where Element == DiffTestItem {
    /// Items with these identifiers, all at version 0.
    public init(ids: [Int]) {
        self = ids.map { DiffTestItem(id: $0) }
    }
}
