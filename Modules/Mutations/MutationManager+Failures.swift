import Foundation
import MediaModel
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// Sends a failed mutation again: it becomes pending, due at once, in its place in its lane
    /// (before mutations of that lane made after it that are still pending). Mutations that
    /// failed because they wait for it become pending again too.
    ///
    /// - Throws: `MutationError` (`unknownToken`, `notFailed`, `storage`).
    public func retry(_ token: MutationToken) throws(MutationError) {
        let result = journalLock.withLock { _ -> Result<Set<MutationToken>, MutationError> in
            let rows = state.withLock { state -> Result<[JournalRow], MutationError> in
                let row: JournalRow
                switch state.ownRow(token) {
                case .success(let own): row = own
                case .failure(let error): return .failure(error)
                }
                guard row.state == .failed else {
                    return .failure(.notFailed(token, row.state, action: "retry"))
                }
                return .success(Self.failedTree(of: row, in: state))
            }
            switch rows {
            case .failure(let error): return .failure(error)
            case .success(let rows):
                let reset = rows.map { row -> JournalRow in
                    var row = row
                    row.state = .pending
                    row.streak = 0
                    row.nextAttemptAt = nil
                    row.lastError = nil
                    return row
                }
                do {
                    try database.transaction { db in for row in reset { try MutationJournal.save(row, db) } }
                } catch {
                    return .failure(.storage("be written", error))
                }
                state.withLock { state in
                    for row in reset {
                        state.queue.put(row)
                        state.show(row)
                    }
                }
                return .success(Set(reset.map(\.token)))
            }
        }
        let tokens = try result.get()
        changed(tokens)
        signal.fire()
    }

    /// Sends a pending change at once: clears its backoff so its next attempt starts now (a
    /// person pressed retry on a change that waits). A failed change is `retry(_:)`'s.
    ///
    /// - Throws: `MutationError` `unknownToken` for a change the journal does not hold,
    ///   `notPending` when it is failed or confirmed, `storage` when the journal cannot be written.
    public func sendNow(_ token: MutationToken) throws(MutationError) {
        let result = journalLock.withLock { _ -> Result<Void, MutationError> in
            let row = state.withLock { state -> Result<JournalRow, MutationError> in
                var row: JournalRow
                switch state.ownRow(token) {
                case .success(let own): row = own
                case .failure(let error): return .failure(error)
                }
                guard row.state == .pending || row.state == .inFlight else {
                    return .failure(.notPending(token, row.state))
                }
                row.streak = 0
                row.nextAttemptAt = nil
                return .success(row)
            }
            switch row {
            case .failure(let error): return .failure(error)
            case .success(let row):
                do {
                    try database.transaction { db in try MutationJournal.save(row, db) }
                } catch {
                    return .failure(.storage("be written", error))
                }
                state.withLock { state in
                    state.queue.put(row)
                    state.queue.reconsiderAll()
                }
                return .success(())
            }
        }
        try result.get()
        changed([token], content: false)
        signal.fire()
    }

    /// Forgets a failed mutation for good, with the failed mutations that wait for it; a failed
    /// post leaves the merged views.
    ///
    /// - Throws: `MutationError` (`unknownToken`, `notFailed`, `storage`).
    public func discard(_ token: MutationToken) throws(MutationError) {
        let result = journalLock.withLock { _ -> Result<Set<MutationToken>, MutationError> in
            let rows = state.withLock { state -> Result<[JournalRow], MutationError> in
                let row: JournalRow
                switch state.ownRow(token) {
                case .success(let own): row = own
                case .failure(let error): return .failure(error)
                }
                guard row.state == .failed else {
                    return .failure(.notFailed(token, row.state, action: "discard"))
                }
                return .success(Self.failedTree(of: row, in: state))
            }
            switch rows {
            case .failure(let error): return .failure(error)
            case .success(let rows):
                let tokens = rows.map(\.token)
                do {
                    try database.transaction { db in try MutationJournal.delete(tokens, db) }
                } catch {
                    return .failure(.storage("be written", error))
                }
                state.withLock { state in
                    for token in tokens {
                        state.queue.remove(token)
                        state.layer.remove(token)
                    }
                }
                return .success(Set(tokens))
            }
        }
        changed(try result.get())
    }

    /// Forgets a journal row this build cannot read (see `unreadableRows`): it is deleted from the
    /// journal for good. A sequence that names no unreadable row is ignored.
    ///
    /// - Throws: `MutationError` (`storage`) when the journal cannot be written.
    public func discardUnreadable(_ sequence: Int64) throws(MutationError) {
        let result = journalLock.withLock { _ -> Result<Bool, MutationError> in
            guard state.withLock({ $0.unreadable.contains { $0.sequence == sequence } }) else {
                return .success(false)
            }
            do {
                try database.transaction { db in try MutationJournal.delete(sequence: sequence, db) }
            } catch {
                return .failure(.storage("be written", error))
            }
            state.withLock { $0.unreadable.removeAll { $0.sequence == sequence } }
            return .success(true)
        }
        if try result.get() { changed([], content: false) }
    }

    /// A failed row and the failed rows waiting for it, transitively, in sequence order.
    static func failedTree(of row: JournalRow, in state: State) -> [JournalRow] {
        var rows = [row]
        var index = 0
        while index < rows.count {
            let cause = rows[index]
            index += 1
            for token in state.queue.dependents[cause.token] ?? [] {
                if let dependent = state.queue.rows[token], dependent.state == .failed {
                    rows.append(dependent)
                }
            }
        }
        return rows.sorted { $0.sequence < $1.sequence }
    }

    /// Drops confirmed mutations a merged list has shown (their server copy is on screen now):
    /// at once from the layer, from the journal by the sender.
    func retire(_ tokens: [MutationToken]) {
        let retired = state.withLock { state -> Set<MutationToken> in
            var retired: Set<MutationToken> = []
            for token in tokens where state.queue.rows[token]?.state == .confirmed {
                state.queue.remove(token)
                state.layer.remove(token)
                state.retirements.insert(token)
                retired.insert(token)
            }
            return retired
        }
        guard !retired.isEmpty else { return }
        changed(retired)
        signal.fire()
    }
}
