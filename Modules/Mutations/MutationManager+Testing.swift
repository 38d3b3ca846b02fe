import Synchronization

extension MutationManager {
    /// How many `enqueue` calls wait for the commit in progress (tests of group commit).
    @_spi(Testing) public var queuedEnqueueCount: Int { commitQueue.withLock { $0.waiting.count } }
}
