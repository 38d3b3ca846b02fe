import MediaModel
import ServerAPI

/// Enqueues waiting for the journal commit they will share (group commit): the first to arrive
/// leads and commits everything queued by then, again and again until the queue is empty.
struct CommitQueue {
    /// A mutation ready to journal (checked, its author chosen).
    struct Draft: Sendable {
        var mutation: Mutation
        var author: User?
    }

    /// One `enqueue` call waiting for its rows.
    struct Waiter {
        var drafts: [Draft]
        /// The app-side draft these mutations use up, recorded in the same commit.
        var consumedDraft: String?
        var continuation: CheckedContinuation<Result<[JournalRow], MutationError>, Never>
    }

    var waiting: [Waiter] = []
    var leaderActive = false
}
