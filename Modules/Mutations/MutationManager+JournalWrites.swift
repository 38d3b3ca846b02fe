import Storage
import Synchronization

extension MutationManager {
    /// The last journal write that failed, what it was for and the storage error, or nil once
    /// a later bookkeeping write succeeds. Such a write (a reset backoff, a retry's next attempt
    /// time, a confirmation, a retargeted dependent, retired rows) never loses a change: the
    /// change stays in memory and is sent as usual, and after a restart the journal's older row
    /// is sent again under the same client token, which the server applies once. What is lost
    /// is bookkeeping, or a failed change's state (sent again, and refused again, after a
    /// restart), so it is shown (the Sync tab) rather than thrown at the sender.
    public var journalWriteFailure: String? { state.withLock { $0.journalWriteFailure } }

    /// Runs a bookkeeping write in one transaction; a failure is recorded in
    /// `journalWriteFailure`, a success clears an earlier one. (Callers hold the journal lock
    /// and tell observers themselves once they are done, so this never calls out.)
    func writeJournal(_ what: String, _ body: (borrowing Connection) throws -> Void) {
        let message: String?
        do {
            try database.transaction { db in try body(db) }
            message = nil
        } catch {
            message = "could not save \(what) to the journal: \(error)"
        }
        state.withLock { $0.journalWriteFailure = message }
    }
}
