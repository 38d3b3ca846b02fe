import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// Journals a mutation and returns its token once the row is committed (WAL,
    /// `synchronous = FULL`): from then on it survives a crash or power loss and will be sent.
    /// Its optimistic effect shows in merged views from the moment this returns.
    ///
    /// A mutation acting on a post still pending here (`local:<token>`) waits for it and is sent
    /// with the server's id; if that post failed, it fails too.
    ///
    /// ```swift
    /// let token = try await manager.enqueue(.like("m42"))
    /// ```
    ///
    /// - Throws: `MutationError`: `payloadTooLarge` (nothing is journaled), `unknownLocalMedia`,
    ///   `storage`.
    @discardableResult
    public func enqueue(_ mutation: Mutation) async throws(MutationError) -> MutationToken {
        try await enqueue(mutation, consumingDraft: nil)
    }

    /// Journals a mutation made from an app-side draft, and records in the same commit that the
    /// draft `draft` (the app's id for it) is used up: a crash can never leave both the change and
    /// its draft, so a posted text never comes back as a draft (see ``isDraftConsumed(_:)``).
    /// `draft` nil journals the mutation alone.
    ///
    /// ```swift
    /// let token = try await manager.enqueue(.post(text: text, attachments: []), consumingDraft: draft.id)
    /// ```
    ///
    /// - Throws: `MutationError`, as `enqueue(_:)`; when it throws, neither the mutation nor the
    ///   draft's use is recorded, and the draft must be kept.
    @discardableResult
    public func enqueue(
        _ mutation: Mutation, consumingDraft draft: String?
    ) async throws(MutationError) -> MutationToken {
        let tokens = try await enqueue([mutation], consumingDraft: draft)
        guard let token = tokens.first else {
            throw MutationError(
                .storage, "the journal returned no row for the \(mutation.kind) just enqueued")
        }
        return token
    }

    /// Journals several mutations in one commit, in order, and returns their tokens once it is
    /// durable. Enqueues from other tasks arriving meanwhile share the commit too.
    ///
    /// - Throws: `MutationError`; when one mutation is refused, none is journaled.
    /// - Complexity: O(k) for k mutations, one commit (one sync to disk).
    @discardableResult
    public func enqueue(_ mutations: [Mutation]) async throws(MutationError) -> [MutationToken] {
        try await enqueue(mutations, consumingDraft: nil)
    }

    private func enqueue(
        _ mutations: [Mutation], consumingDraft consumed: String?
    ) async throws(MutationError) -> [MutationToken] {
        guard !mutations.isEmpty else { return [] }
        let drafts = try prepare(mutations)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[JournalRow], MutationError>, Never>) in
            let leads = commitQueue.withLock { queue -> Bool in
                queue.waiting.append(
                    CommitQueue.Waiter(drafts: drafts, consumedDraft: consumed, continuation: continuation))
                guard !queue.leaderActive else { return false }
                queue.leaderActive = true
                return true
            }
            if leads { drainCommits() }
        }
        return try result.get().map(\.token)
    }

    /// Checks sizes and local ids, and picks the author of new posts.
    private func prepare(_ mutations: [Mutation]) throws(MutationError) -> [CommitQueue.Draft] {
        let viewer = state.withLock { $0.viewer }
        var drafts: [CommitQueue.Draft] = []
        drafts.reserveCapacity(mutations.count)
        for mutation in mutations {
            // A post or a reply is shown as its author until confirmed; other kinds have none.
            let author = mutation.kind.carriesContent ? viewer ?? OptimisticLayer.placeholderAuthor : nil
            let size = JournalCodec.encode(mutation, author: author).count
            guard size <= configuration.payloadLimit else {
                throw .payloadTooLarge(mutation.kind, bytes: size, limit: configuration.payloadLimit)
            }
            if let target = mutation.targetMedia, let local = MutationToken(localMediaID: target) {
                let known = state.withLock { $0.localToServer[local] != nil || $0.queue.rows[local] != nil }
                guard known else { throw .unknownLocalMedia(target) }
            }
            drafts.append(CommitQueue.Draft(mutation: mutation, author: author))
        }
        return drafts
    }

    /// Commits everything queued, batch after batch, until nobody waits (run by the leader).
    private func drainCommits() {
        while true {
            let batch = commitQueue.withLock { queue -> [CommitQueue.Waiter] in
                let waiting = queue.waiting
                queue.waiting = []
                if waiting.isEmpty { queue.leaderActive = false }
                return waiting
            }
            guard !batch.isEmpty else { return }
            let result = commit(batch.map(\.drafts), consumedDraft: batch.compactMap(\.consumedDraft).last)
            switch result {
            case .success(let rows):
                for (waiter, rows) in zip(batch, rows) {
                    waiter.continuation.resume(returning: .success(rows))
                }
                changed(Set(rows.joined().map(\.token)))
                signal.fire()
            case .failure(let error):
                for waiter in batch { waiter.continuation.resume(returning: .failure(error)) }
            }
        }
    }

    /// Journals the batches in one transaction, with the app-side draft they used up (the last
    /// one, when several share the commit), then adds the rows to the queue and the layer.
    private func commit(
        _ batches: [[CommitQueue.Draft]], consumedDraft: String?
    ) -> Result<[[JournalRow]], MutationError> {
        journalLock.withLock { lock -> Result<[[JournalRow]], MutationError> in
            let now = self.now
            let built = state.withLock { state in
                batches.map { drafts in
                    drafts.map { draft in
                        let sequence = state.nextSequence
                        state.nextSequence += 1
                        let (mutation, dependsOn, failure) = Self.resolveTarget(draft.mutation, in: state)
                        return JournalRow(
                            sequence: sequence, token: configuration.tokens.token(sequence: sequence),
                            lane: mutation.lane, mutation: mutation, author: draft.author,
                            state: failure == nil ? .pending : .failed, attempts: 0, streak: 0,
                            nextAttemptAt: nil, lastError: failure, dependsOn: dependsOn, createdAt: now,
                            confirmation: nil, account: state.queue.account)
                    }
                }
            }
            let rows = Array(built.joined())
            let payloads = rows.map { JournalCodec.encode($0.mutation, author: $0.author) }
            do {
                try database.transaction(.immediate, synchronous: .full) { db in
                    try MutationJournal.insert(rows, payloads: payloads, db)
                    if let consumedDraft { try MutationJournal.saveConsumedDraft(consumedDraft, db) }
                }
            } catch {
                return .failure(.storage("be written", error))
            }
            lock.commits += 1
            state.withLock { state in
                if let consumedDraft { state.consumedDraft = consumedDraft }
                for row in rows {
                    state.queue.put(row)
                    state.show(row)
                }
            }
            return .success(built)
        }
    }

    /// The mutation with a confirmed local target replaced by its server id, the token it must
    /// wait for, or why it cannot be sent.
    static func resolveTarget(_ mutation: Mutation, in state: State) -> (Mutation, MutationToken?, String?) {
        guard let target = mutation.targetMedia, let local = MutationToken(localMediaID: target) else {
            return (mutation, nil, nil)
        }
        if let server = state.localToServer[local] { return (mutation.retargeted(to: server), nil, nil) }
        guard let dependency = state.queue.rows[local] else {
            return (
                mutation, nil,
                "it acts on post '\(target)', which is no longer in the journal (it was discarded); "
                    + "discard this one too"
            )
        }
        switch dependency.state {
        case .pending, .inFlight:
            return (mutation, local, nil)
        case .failed:
            return (mutation, local, dependencyFailure(dependency))
        case .confirmed:
            if case .post(let media, _)? = dependency.confirmation {
                return (mutation.retargeted(to: media.id), nil, nil)
            }
            return (
                mutation, nil, "it acts on post '\(target)', whose confirmation holds no post; discard it"
            )
        }
    }

    /// Why a mutation waiting for `dependency` fails with it.
    static func dependencyFailure(_ dependency: JournalRow) -> String {
        "it waits for the \(dependency.mutation.kind) '\(dependency.token)', which failed"
            + (dependency.lastError.map { " (\($0))" } ?? "")
            + "; retry that \(dependency.mutation.kind) to send this too, or discard it"
    }
}
