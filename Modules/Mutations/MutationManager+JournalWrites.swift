import Storage
import Synchronization

extension MutationManager {
    /// A bookkeeping write the journal refused, kept to be written again.
    struct UnsavedWrite: Sendable {
        /// What the write saves, in plain words ("a confirmation").
        var what: String
        /// The write itself, replayed as it was first asked for.
        var body: @Sendable (borrowing Connection) throws -> Void
    }

    /// How long the sender waits before writing refused journal writes again.
    static let unsavedWriteRetry = Duration.seconds(1)

    /// The last journal write that failed, in plain words: what it was for, the storage error,
    /// and that it is tried again; nil once every refused write has been saved.
    ///
    /// Such a write (a reset backoff, a retry's next attempt time, a confirmation, a failure, a
    /// retargeted dependent, retired rows) never loses a change: the change stays in memory and is
    /// sent as usual. The refused write is kept and written again, before any later one and in
    /// order, with each later write and every second on the sender, until the journal takes it:
    /// it is never dropped. Until then, a restart finds the journal's older row, sent again under
    /// the same client token, which the server applies once. The Sync tab shows this text.
    public var journalWriteFailure: String? { state.withLock { $0.journalWriteFailure } }

    /// How many refused journal writes wait to be written again.
    public var unsavedJournalWrites: Int { state.withLock { $0.unsavedWrites.count } }

    /// Runs a bookkeeping write in one transaction, after the refused writes still waiting (so
    /// the journal receives every write in the order it was made). A failure keeps the write to
    /// retry and is recorded in `journalWriteFailure`; a success clears it. (Callers hold the
    /// journal lock and tell observers themselves once they are done, so this never calls out.)
    func writeJournal(_ what: String, _ body: @escaping @Sendable (borrowing Connection) throws -> Void) {
        let write = UnsavedWrite(what: what, body: body)
        let waiting = state.withLock { $0.unsavedWrites }
        let message: String?
        do {
            try database.transaction { db in
                for earlier in waiting { try earlier.body(db) }
                try body(db)
            }
            message = nil
        } catch {
            message = Self.unsavedMessage(what, error: error, count: waiting.count + 1)
        }
        let now = now
        state.withLock { state in
            state.journalWriteFailure = message
            if message == nil {
                state.unsavedWrites.removeFirst(min(waiting.count, state.unsavedWrites.count))
                if state.unsavedWrites.isEmpty { state.unsavedRetryAt = nil }
            } else {
                state.unsavedWrites.append(write)
                state.unsavedRetryAt = now + Self.unsavedWriteRetry.wholeMilliseconds
            }
        }
    }

    /// Writes the refused journal writes again, in order, in one transaction, when their retry
    /// time has come (the sender calls it on each pass).
    ///
    /// - Returns: When to try again, if some are still waiting.
    func retryUnsavedWrites() -> Int64? {
        let now = now
        let (settled, retryAt) = journalLock.withLock { _ -> (Bool, Int64?) in
            let (waiting, retryAt) = state.withLock { ($0.unsavedWrites, $0.unsavedRetryAt) }
            guard let first = waiting.first, let retryAt else { return (false, nil) }
            guard retryAt <= now else { return (false, retryAt) }
            do {
                try database.transaction { db in
                    for write in waiting { try write.body(db) }
                }
                state.withLock { state in
                    state.unsavedWrites.removeFirst(min(waiting.count, state.unsavedWrites.count))
                    state.unsavedRetryAt = nil
                    state.journalWriteFailure = nil
                }
                return (true, nil)
            } catch {
                let message = Self.unsavedMessage(first.what, error: error, count: waiting.count)
                let next = now + Self.unsavedWriteRetry.wholeMilliseconds
                state.withLock { state in
                    state.journalWriteFailure = message
                    state.unsavedRetryAt = next
                }
                return (false, next)
            }
        }
        if settled { changed([], content: false) }
        return retryAt
    }

    /// The plain-words text of a refused write.
    private static func unsavedMessage(_ what: String, error: any Error, count: Int) -> String {
        let waiting = count == 1 ? "it is" : "\(count) writes are"
        let reason = (error as? StorageError)?.message ?? "\(error)"
        return "could not save \(what) to the journal: \(reason); nothing is lost, \(waiting) tried again"
    }
}
