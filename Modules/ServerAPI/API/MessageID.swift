/// A direct message's identifier as the server spells it (`"dm12"`); a message still pending on
/// this device is `local:<token>`.
public struct MessageID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identifier as the server spells it.
    public let rawValue: String

    /// Wraps a raw identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a raw identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal identifier (handy in tests).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Orders identifiers by their raw text.
    public static func < (lhs: MessageID, rhs: MessageID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The raw identifier.
    public var description: String { rawValue }
}
