/// Why a list view could not apply an update as given, and reloaded instead (the classic
/// "invalid number of items" batch-update failure, reported rather than crashed).
public struct ListUpdateIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was inconsistent, quoting the counts or indexes.
    public let message: String

    /// Makes an issue.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
