/// The server URL given to `network.http` cannot be used: what is wrong with it, quoting it.
public struct ServerURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, quoting the URL, and what to give instead.
    public let message: String

    /// The message.
    public var description: String { message }
}
