/// Identifies one entry of a list: its identity in diffs, distinct from the media it shows.
public struct FeedEntryID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier as the server spells it (`"e42"`).
    public let rawValue: String

    /// Wraps a raw identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a raw identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal identifier (handy in tests and seed data).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Orders identifiers by their raw text.
    public static func < (lhs: FeedEntryID, rhs: FeedEntryID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The raw identifier.
    public var description: String { rawValue }
}
