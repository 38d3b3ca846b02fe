import Synchronization

extension MutationManager {
    /// How many `enqueue` calls wait for the commit in progress (tests of group commit).
    @_spi(Testing) public var queuedEnqueueCount: Int { commitQueue.withLock { $0.waiting.count } }

    /// Whether an `enqueue` leads a commit it has taken every queued change into (so the next
    /// one queues behind it): a leader and nobody waiting (tests of group commit).
    @_spi(Testing) public var isCommittingAlone: Bool {
        commitQueue.withLock { $0.leaderActive && $0.waiting.isEmpty }
    }
}
