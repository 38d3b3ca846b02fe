/// A change to what the mutation manager shows: the optimistic layer, or the pending and failed
/// lists. Screens re-merge and redraw on receipt (read the current state then; changes made at
/// once may be reported together).
public struct MutationChange: Hashable, Sendable {
    /// Increases with every change.
    public var revision: Int
    /// The mutations that changed (enqueued, sent, confirmed, failed, retried, discarded).
    public var tokens: Set<MutationToken>
    /// Whether what a screen shows of posts may have changed (the optimistic layer, or facts the
    /// server confirmed differently from what was shown). False when only the pending and failed
    /// lists changed: an attempt started, the backoff was reset, the sender stopped, or the
    /// server confirmed exactly what the screen already showed. Lists of posts re-merge only when
    /// it is true; a list of the changes themselves redraws on every change.
    public var changesContent: Bool

    /// Makes a change notice.
    public init(revision: Int, tokens: Set<MutationToken>, changesContent: Bool = true) {
        self.revision = revision
        self.tokens = tokens
        self.changesContent = changesContent
    }
}
