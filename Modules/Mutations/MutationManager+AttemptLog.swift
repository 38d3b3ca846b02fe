import Foundation
import MediaModel
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// The newest `limit` attempts of the attempt log (of one mutation when `token` is given),
    /// oldest first. Print them with `AttemptLogFormatter`.
    ///
    /// ```swift
    /// print(AttemptLogFormatter().format(try manager.attemptLog(limit: 20)))
    /// ```
    ///
    /// - Throws: `MutationError` (`storage`) when the log cannot be read.
    public func attemptLog(limit: Int = 100, for token: MutationToken? = nil) throws(MutationError)
        -> [MutationAttempt]
    {
        do {
            return try database.withConnection { db in
                try MutationJournal.attempts(token: token, limit: limit, db)
            }
        } catch {
            throw .storage("be read", error)
        }
    }
}
