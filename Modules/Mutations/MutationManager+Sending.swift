import Basics
import FeedCaching
import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// Starts sending: every lane is looked at, and mutations go out as their turn and time come.
    /// Calling it again while running does nothing.
    public func start() {
        state.withLock { state in
            guard !state.running else { return }
            state.running = true
            state.queue.reconsiderAll()
            state.sender = Task { await self.runSender() }
        }
    }

    /// Stops sending, cleanly: no attempt starts any more, attempts in flight are cancelled and
    /// awaited (their rows stay pending; the server's idempotency makes the retry safe).
    public func stop() async {
        let sender = state.withLock { state -> Task<Void, Never>? in
            state.running = false
            defer { state.sender = nil }
            return state.sender
        }
        sender?.cancel()
        signal.fire()
        await sender?.value
        while true {
            let tasks = state.withLock { state -> [Task<Void, Never>] in
                defer { state.tasks = [:] }
                return Array(state.tasks.values)
            }
            guard !tasks.isEmpty else { break }
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
        }
        changed([], content: false)
    }

    /// Whether the sender runs.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// Clears every pending mutation's backoff so attempts start at once: call it when the
    /// network comes back (reachability returned, the network profile changed).
    public func networkDidChange() {
        let tokens = journalLock.withLock { _ -> Set<MutationToken> in
            writeJournal("the reset of the backoff") { db in try MutationJournal.resetBackoff(db) }
            return state.withLock { state in
                var tokens: Set<MutationToken> = []
                for row in state.queue.rows(in: [.pending, .inFlight])
                where row.streak > 0 || row.nextAttemptAt != nil {
                    var reset = row
                    reset.streak = 0
                    reset.nextAttemptAt = nil
                    state.queue.put(reset)
                    tokens.insert(row.token)
                }
                state.queue.reconsiderAll()
                state.unauthorized.removeAll()
                return tokens
            }
        }
        changed(tokens, content: false)
        signal.fire()
    }

    // MARK: - The sender

    private func runSender() async {
        while !Task.isCancelled {
            processRetirements()
            let unsaved = retryUnsavedWrites()
            let decision = state.withLock { state -> MutationQueue.Decision? in
                guard state.running else { return nil }
                let now = now
                clampDueTimes(&state, now: now)
                return state.queue.schedule(now: now, capacity: max(configuration.maxConcurrentAttempts, 1))
            }
            guard let decision else { return }
            if !decision.unresolved.isEmpty {
                for row in decision.unresolved { resolveDependency(of: row) }
                continue
            }
            for row in decision.launches {
                let task = Task { await self.attempt(row) }
                state.withLock { state in
                    if state.queue.inFlight.contains(row.token) { state.tasks[row.token] = task }
                }
            }
            wakeIdleWaiters()
            let wakeAt = [decision.wakeAt, unsaved].compactMap { $0 }.min()
            await signal.wait(until: wakeAt.map { Date(wireMilliseconds: $0) }, clock: clock)
        }
    }

    /// Deletes the journal rows of confirmed mutations a merged list has shown.
    private func processRetirements() {
        let tokens = state.withLock { state -> Set<MutationToken> in
            defer { state.retirements = [] }
            return state.retirements
        }
        guard !tokens.isEmpty else { return }
        journalLock.withLock { _ in
            writeJournal("the removal of confirmed changes") { db in try MutationJournal.delete(tokens, db) }
        }
    }

    /// A lane head whose dependency was confirmed, failed or discarded: retarget it or fail it.
    private func resolveDependency(of head: JournalRow) {
        let failedTokens = journalLock.withLock { _ -> Set<MutationToken>? in
            let resolved = state.withLock { state -> (JournalRow, String?)? in
                guard var row = state.queue.rows[head.token], row.dependsOn != nil else { return nil }
                let (mutation, dependsOn, failure) = Self.resolveTarget(row.mutation, in: state)
                row.mutation = mutation
                row.dependsOn = dependsOn
                if failure == nil { row.lane = mutation.lane }
                return (row, failure)
            }
            guard let (row, failure) = resolved else { return nil }
            if let failure { return fail(row, message: failure, attempt: nil) }
            writeJournal("a change's new target") { db in try MutationJournal.save(row, db) }
            state.withLock { state in
                state.queue.put(row)
                state.show(row)
            }
            return [row.token]
        }
        changed(failedTokens ?? [])
    }

    // MARK: - Attempts

    /// One attempt: journal its start, send, then apply the outcome.
    private func attempt(_ launched: JournalRow) async {
        var row = launched
        // Another account signed in since the row was scheduled: it is held, not sent.
        guard !Task.isCancelled, state.withLock({ $0.queue.account == row.account }) else {
            settleCancelled(row, attempt: nil)
            return
        }
        row.attempts += 1
        do {
            try journalLock.withLock { _ in
                try database.transaction { db in try MutationJournal.saveAttemptStart(row, db) }
                state.withLock { $0.queue.put(row) }
            }
        } catch {
            // The journal cannot be written: put the row back and try again later.
            row.attempts -= 1
            row.state = .pending
            row.nextAttemptAt = now + 1000
            row.lastError = "the journal could not record the attempt: \(error)"
            journalLock.withLock { _ in state.withLock { $0.queue.put(row) } }
            finish(row.token, changed: [row.token])
            return
        }
        changed([row.token], content: false)
        let startedAt = clock.now
        let outcome: Result<WireEnvelope<MutationResult>, TransportError>
        do {
            outcome = .success(try await send(row.mutation, row.token, row.account))
        } catch {
            outcome = .failure(error)
        }
        let endedAt = clock.now
        var log = MutationAttempt(
            token: row.token, kind: row.mutation.kind, attempt: row.attempts, startedAt: startedAt,
            endedAt: endedAt, outcome: .confirmed)
        switch outcome {
        case .success(let envelope):
            log.detail = envelope.payload.replayed ? "replayed" : ""
            confirm(
                row, row.mutation.confirmation(from: envelope.payload), facts: envelope.facts, attempt: log)
        case .failure(let error):
            log.status = error.status
            log.errorClass = error.errorClass
            log.detail = error.description
            if let confirmation = row.mutation.confirmation(refusedWith: error) {
                // Already so on the server (a delete of a post that is gone): done, not refused.
                log.detail = "already done: \(error.description)"
                confirm(row, confirmation, facts: [:], attempt: log)
                return
            }
            switch error.disposition {
            case .retry:
                retryLater(row, error: error, attempt: log)
            case .reauthenticate:
                await reauthenticate()
                retryLater(row, error: error, attempt: log)
            case .permanent:
                log.outcome = .failed
                let failed = journalLock.withLock { _ in fail(row, message: error.description, attempt: log) }
                finish(row.token, changed: failed)
            case .cancelled:
                if Task.isCancelled {
                    settleCancelled(row, attempt: log)
                } else {
                    retryLater(row, error: error, attempt: log)
                }
            }
        }
    }

    /// Applies a confirmation (from a response, or from a refusal that means the change already
    /// holds): server-side state first, then the journal and the layer in
    /// one step, so no merge sees the change missing.
    private func confirm(
        _ row: JournalRow, _ confirmation: MutationConfirmation, facts: [MediaID: MediaFacts],
        attempt: MutationAttempt
    ) {
        let shownBefore = shownFacts(of: row.mutation)
        if row.mutation.kind.subject == .reply, let parent = row.mutation.media,
            let revision = facts[parent]?.revision
        {
            state.withLock { $0.layer.gateReply(row.token, parent: parent, revision: revision) }
        }
        let tokens = journalLock.withLock { _ -> (changed: Set<MutationToken>, onlyFacts: Bool) in
            // The facts go to the cache's rows with the confirmation, in one write, and to the
            // screens' store at once.
            let storesFacts = feedCache != nil && !facts.isEmpty
            if storesFacts { _ = feedCache?.mediaStore.apply(facts) }
            // A follow or unfollow changes the home feed below its top too: the cache learns it
            // with the confirmation, and its next refresh fetches the cached range again.
            let reshapesHome = feedCache != nil && row.mutation.kind.reshapesHomeFeed
            var confirmed = row
            confirmed.state = .confirmed
            confirmed.confirmation = confirmation
            confirmed.lastError = nil
            confirmed.nextAttemptAt = nil
            confirmed.streak = 0
            let keep = confirmation != .facts || row.mutation.kind.keptUntilShown
            let (dependents, trimmed, serverID) = state.withLock {
                state -> ([JournalRow], [MutationToken], MediaID?) in
                var serverID: MediaID?
                var dependents: [JournalRow] = []
                if case .post(let media, _) = confirmation {
                    serverID = media.id
                    for token in state.queue.dependents[row.token] ?? [] {
                        guard var dependent = state.queue.rows[token] else { continue }
                        dependent.mutation = dependent.mutation.retargeted(to: media.id)
                        dependent.dependsOn = nil
                        dependent.lane = dependent.mutation.lane
                        dependents.append(dependent)
                    }
                }
                var trimmed: [MutationToken] = []
                if keep {
                    let kept = state.queue.rows(in: [.confirmed])
                    let excess = kept.count + 1 - max(configuration.confirmedLimit, 1)
                    if excess > 0 { trimmed = kept.prefix(excess).map(\.token) }
                }
                return (dependents.sorted { $0.sequence < $1.sequence }, trimmed, serverID)
            }
            var viewer: User?
            if case .post(let media, _) = confirmation, state.withLock({ $0.viewer == nil }) {
                viewer = media.author
            }
            writeJournal("a confirmation") { [confirmed, viewer, limit = configuration.attemptLogLimit] db in
                if storesFacts { try FeedCache.storeFacts(db, facts) }
                if reshapesHome { try FeedCache.markFollowsChanged(db) }
                if keep {
                    try MutationJournal.save(confirmed, db)
                } else {
                    try MutationJournal.delete([row.token], db)
                }
                if let viewer { try MutationJournal.saveViewer(viewer, db) }
                for dependent in dependents { try MutationJournal.save(dependent, db) }
                try MutationJournal.delete(trimmed, db)
                try MutationJournal.append(attempt, limit: limit, db)
            }
            state.withLock { state in
                if keep {
                    state.queue.put(confirmed)
                    state.show(confirmed)
                } else {
                    state.queue.remove(row.token)
                    state.layer.remove(row.token)
                }
                if let serverID { state.localToServer[row.token] = serverID }
                if let learned = viewer { state.viewer = learned }
                for dependent in dependents {
                    state.queue.put(dependent)
                    state.show(dependent)
                }
                for token in trimmed {
                    state.queue.remove(token)
                    state.layer.remove(token)
                }
                state.unauthorized.remove(row.token)
            }
            return (
                Set([row.token] + dependents.map(\.token) + trimmed),
                confirmation == .facts && dependents.isEmpty && trimmed.isEmpty
            )
        }
        // A change the server confirmed exactly as it was shown (a like's count and heart) leaves
        // every list of posts as it is: only the list of changes needs to know.
        let content = !tokens.onlyFacts || shownBefore == nil || shownFacts(of: row.mutation) != shownBefore
        finish(row.token, changed: tokens.changed, content: content)
    }

    /// What a screen shows of the media `mutation` acts on (nil when it acts on none, or when
    /// there is no store to read the server's facts from), revision left out: the part of the
    /// merged state a confirmation may change.
    private func shownFacts(of mutation: Mutation) -> MediaFacts?? {
        guard let id = mutation.targetMedia, let store = feedCache?.mediaStore else {
            return nil
        }
        let server = store.facts(for: id)
        let shown = state.withLock { $0.layer.visibleFacts(server, for: id) }
        return .some(
            shown.map { facts in
                var facts = facts
                facts.revision = 0
                return facts
            })
    }

    /// Schedules the next attempt after a retryable failure (or a 401, once the session was
    /// renewed): `Retry-After` when the server gave one (no later than the policy's cap), else
    /// backoff with full jitter.
    private func retryLater(_ row: JournalRow, error: TransportError, attempt: MutationAttempt) {
        var attempt = attempt
        let tokens = journalLock.withLock { _ -> Set<MutationToken> in
            var next = row
            next.state = .pending
            next.lastError = error.description
            let delay = state.withLock { state -> Duration in
                let policy = configuration.retryPolicy(for: row.mutation.kind)
                if error.disposition == .reauthenticate {
                    attempt.outcome = .reauthenticate
                    // The first 401 retries at once with the renewed session; repeated ones back off.
                    guard state.unauthorized.insert(row.token).inserted == false else { return .zero }
                } else {
                    attempt.outcome = .retry
                    state.unauthorized.remove(row.token)
                }
                next.streak += 1
                if let retryAfter = error.retryAfter { return min(max(retryAfter, .zero), policy.cap) }
                return policy.delay(afterFailures: next.streak, unit: state.jitter.unit())
            }
            attempt.delay = delay
            next.nextAttemptAt =
                attempt.endedAt.wireMilliseconds + Int64((delay.secondsValue * 1000).rounded())
            writeJournal("a retry's next attempt") {
                [next, attempt, limit = configuration.attemptLogLimit] db in
                try MutationJournal.save(next, db)
                try MutationJournal.append(attempt, limit: limit, db)
            }
            state.withLock { $0.queue.put(next) }
            return [row.token]
        }
        finish(row.token, changed: tokens)
    }

    /// Marks a mutation failed for good, with every mutation waiting for it (transitively), and
    /// rolls their effects back. Call with `journalLock` held.
    ///
    /// - Returns: The tokens that changed.
    func fail(_ row: JournalRow, message: String, attempt: MutationAttempt?) -> Set<MutationToken> {
        let rows = state.withLock { state -> [JournalRow] in
            var failed = row
            failed.state = .failed
            failed.lastError = message
            failed.nextAttemptAt = nil
            var rows = [failed]
            var index = 0
            while index < rows.count {
                let cause = rows[index]
                index += 1
                for token in (state.queue.dependents[cause.token] ?? []).sorted() {
                    guard var dependent = state.queue.rows[token], dependent.state != .failed else {
                        continue
                    }
                    dependent.state = .failed
                    dependent.lastError = Self.dependencyFailure(cause)
                    rows.append(dependent)
                }
            }
            return rows
        }
        writeJournal("a failed change") { [limit = configuration.attemptLogLimit] db in
            for failed in rows { try MutationJournal.save(failed, db) }
            if let attempt { try MutationJournal.append(attempt, limit: limit, db) }
        }
        state.withLock { state in
            for failed in rows {
                state.queue.put(failed)
                state.show(failed)
            }
            state.unauthorized.remove(row.token)
        }
        return Set(rows.map(\.token))
    }

    /// An attempt cancelled because the manager stops: the row stays pending, due at once.
    private func settleCancelled(_ row: JournalRow, attempt: MutationAttempt?) {
        var pending = row
        pending.state = .pending
        journalLock.withLock { _ in
            writeJournal("a cancelled attempt") { [pending, limit = configuration.attemptLogLimit] db in
                try MutationJournal.save(pending, db)
                if var attempt {
                    attempt.outcome = .cancelled
                    try MutationJournal.append(attempt, limit: limit, db)
                }
            }
            state.withLock { $0.queue.put(pending) }
        }
        finish(row.token, changed: [row.token])
    }

    /// Ends an attempt: forgets its task, tells observers, wakes the sender.
    private func finish(_ token: MutationToken, changed tokens: Set<MutationToken>, content: Bool = true) {
        state.withLock { _ = $0.tasks.removeValue(forKey: token) }
        changed(tokens, content: content)
        signal.fire()
    }
}
