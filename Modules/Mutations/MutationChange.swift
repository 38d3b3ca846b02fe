/// A change to what the mutation manager shows: the optimistic layer, or the pending and failed
/// lists. Screens re-merge and redraw on receipt (read the current state then; changes made at
/// once may be reported together).
public struct MutationChange: Hashable, Sendable {
    /// Increases with every change.
    public var revision: Int
    /// The mutations that changed (enqueued, sent, confirmed, failed, retried, discarded).
    public var tokens: Set<MutationToken>

    /// Makes a change notice.
    public init(revision: Int, tokens: Set<MutationToken>) {
        self.revision = revision
        self.tokens = tokens
    }
}
