/// A journal row this build cannot decode (a newer build wrote a kind this one does not know, or
/// the payload is damaged): kept on disk and never sent, shown as failed so the person sees it
/// and may discard it (`MutationManager.discardUnreadable(_:)`).
public struct UnreadableMutation: Sendable, Hashable {
    /// The row's place in the journal, which names it for `discardUnreadable(_:)`.
    public var sequence: Int64
    /// The row's client token, as stored (empty when even that cannot be read).
    public var token: String
    /// The row's kind as stored (`like`, or a kind a newer build added), quoted as is.
    public var kind: String
    /// Why it cannot be read, from the decoder.
    public var problem: String

    /// Makes a description of an unreadable row.
    public init(sequence: Int64, token: String, kind: String, problem: String) {
        self.sequence = sequence
        self.token = token
        self.kind = kind
        self.problem = problem
    }
}
