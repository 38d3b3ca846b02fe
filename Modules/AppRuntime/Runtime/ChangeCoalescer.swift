import Mutations
import Synchronization

/// Gathers the mutation manager's change notices between two turns of the UI actor, so the
/// screen merges once per batch instead of once per notice.
///
/// `add` is called on whatever thread made the change; it returns true for the first notice of
/// a batch (the caller then schedules one hop to the UI actor). `take`, on the UI actor, ends
/// the batch and says whether any notice in it changed content.
final class ChangeCoalescer: Sendable {
    private struct Batch {
        var open = false
        var content = false
    }

    private let batch = Mutex(Batch())

    /// Adds a notice; true when it opens a batch (schedule one `take`).
    func add(_ change: MutationChange) -> Bool {
        batch.withLock { batch in
            batch.content = batch.content || change.changesContent
            defer { batch.open = true }
            return !batch.open
        }
    }

    /// Ends the batch: whether any of its notices changed what lists of posts show.
    func take() -> Bool {
        batch.withLock { batch in
            defer { batch = Batch() }
            return batch.content
        }
    }
}
