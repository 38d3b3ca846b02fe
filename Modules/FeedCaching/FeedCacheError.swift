/// A feed cache operation that could not be done: what, why, and how to recover.
public struct FeedCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    public let message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
