import Basics
import FeedCaching
import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

/// The one way user changes reach the server: every kind of change (`MutationKind.all`) is
/// enqueued here, never sent by a screen.
///
/// 1. `enqueue` writes the mutation to the journal (the app's SQLite database, committed with
///    `synchronous = FULL`) and returns only then; bursts share one commit.
/// 2. Its optimistic effect joins a layer kept apart from server data; screens show
///    `mergedHomeFeed`, `mergedThread`, `mergedProfile`: server data plus pending effects, on the
///    fly, so a refresh never clobbers a pending change.
/// 3. A sender sends each lane's mutations strictly in the order made, one in flight per lane,
///    with the mutation's token as `Idempotency-Key` on every attempt.
/// 4. Retryable failures back off (exponential, full jitter, `Retry-After` honored), with the
///    schedule in the journal, so it survives restarts; a 401 renews the session first;
///    permanent failures mark the mutation failed and roll its effect back.
/// 5. The confirming response is applied to server-side state (the facts through the feed
///    cache, which keeps them for the next cold start and applies them to its `MediaStore`;
///    posts awaiting a list) in the same step its effect leaves the layer: nothing flickers.
/// 6. Every attempt goes to the attempt log.
/// 7. Each change belongs to the account signed in when it was made (`account`): only that
///    account's changes are sent, listed and merged; the others are held, kept in the journal,
///    until their account signs in again (`setAccount(_:)`, `held`).
///
/// ```swift
/// let manager = try MutationManager(database: database, client: { network.client },
///                                   feedCache: cache, clock: clock)
/// manager.start()
/// let token = try await manager.enqueue(.like("m42"))     // durable when it returns
/// let rows = manager.mergedHomeFeed(cached, store: network.mediaStore)
/// await manager.waitUntilIdle()                            // nothing in flight or due now
/// ```
///
/// Threading: `Sendable`, state behind a `Mutex`; journal writes are serialized by a second lock
/// held across each write and its in-memory update, so memory and disk agree. Merges read a
/// snapshot and never wait for the disk.
public final class MutationManager: Sendable {
    /// Sends one mutation with its token and returns the server's answer.
    public typealias Send =
        @Sendable (Mutation, MutationToken) async throws(TransportError) -> WireEnvelope<MutationResult>
    /// Sends one mutation with its token, as the account that made it (its handle, or nil).
    typealias SendAs =
        @Sendable (Mutation, MutationToken, _ account: String?) async throws(TransportError) ->
        WireEnvelope<MutationResult>

    struct State {
        var queue = MutationQueue()
        var layer = OptimisticLayer()
        /// The server ids of posts made here, once confirmed.
        var localToServer: [MutationToken: MediaID] = [:]
        var nextSequence: Int64 = 1
        var running = false
        var sender: Task<Void, Never>?
        var tasks: [MutationToken: Task<Void, Never>] = [:]
        var jitter: SplitMix64
        var revision = 0
        var observers: [Int: @Sendable (MutationChange) -> Void] = [:]
        var nextObserverID = 0
        var idleWaiters: [CheckedContinuation<Bool, Never>] = []
        /// Mutations whose last attempt answered 401.
        var unauthorized: Set<MutationToken> = []
        var viewer: User?
        /// The app-side draft the newest change made from one used up.
        var consumedDraft: String?
        /// Confirmed rows a list has shown, to delete from the journal.
        var retirements: Set<MutationToken> = []
        var unreadable: [UnreadableMutation] = []
        /// See `journalWriteFailure`.
        var journalWriteFailure: String?
        /// Journal writes refused by the database, oldest first, to be written again.
        var unsavedWrites: [UnsavedWrite] = []
        /// When to write `unsavedWrites` again (milliseconds since 1970).
        var unsavedRetryAt: Int64?
        /// The clock's last reading by the sender (see `clampDueTimes`).
        var lastClockReading: Int64?
    }

    /// Journal writes, serialized; counts commits.
    struct JournalLock {
        var commits = 0
    }

    /// The app database holding the journal and the attempt log.
    public let database: Database
    /// The way confirmed facts reach the app: the feed cache writes them into its rows (so a cold
    /// start shows them) and applies them to its `MediaStore`, the one store screens read. Nil for
    /// a manager that only journals and sends.
    public let feedCache: FeedCache?
    /// Where time comes from: backoff, attempt times, idleness. With a `ManualClock` nothing is
    /// retried until the clock is advanced.
    public let clock: any WallClock
    /// Retry policies and limits.
    public let configuration: Configuration
    let send: SendAs
    let reauthenticate: @Sendable () async -> Void
    let state: Mutex<State>
    let journalLock = Mutex(JournalLock())
    let commitQueue = Mutex(CommitQueue())
    let signal = WakeSignal()

    /// Opens the manager on a migrated app database (`AppDatabase.open`), rebuilding the
    /// optimistic layer from the journal; in-flight rows become pending again. Nothing is sent
    /// until `start()`.
    ///
    /// - Parameters:
    ///   - database: the app database that holds the journal and the attempt log.
    ///   - send: how a mutation reaches the server (`APIClient.send(_:clientToken:)`).
    ///   - feedCache: where confirmed facts go: its rows, for the next cold start, and its
    ///     `MediaStore`, for the screens.
    ///   - reauthenticate: renews the session after a 401, before the retry (default: nothing,
    ///     so the next attempt re-reads the session token through `send`).
    ///   - clock: where time comes from: backoff, attempt times, idleness (with a `ManualClock`
    ///     nothing is retried until the clock is advanced).
    ///   - configuration: retry policies, limits, the jitter seed and the token source.
    ///   - account: the handle of the account signed in (see `setAccount(_:)`); nil sends the
    ///     rows that name no account.
    /// - Throws: `MutationError` (`storage`) when the journal cannot be read.
    /// - Complexity: O(n) in the journal's rows.
    public convenience init(
        database: Database, send: @escaping Send, feedCache: FeedCache? = nil,
        clock: any WallClock = SystemClock(), configuration: Configuration = Configuration(),
        account: String? = nil, reauthenticate: @escaping @Sendable () async -> Void = {}
    ) throws(MutationError) {
        try self.init(
            database: database,
            sendAs: { mutation, token, _ throws(TransportError) in try await send(mutation, token) },
            feedCache: feedCache, clock: clock, configuration: configuration, account: account,
            reauthenticate: reauthenticate)
    }

    init(
        database: Database, sendAs send: @escaping SendAs, feedCache: FeedCache?, clock: any WallClock,
        configuration: Configuration, account: String?, reauthenticate: @escaping @Sendable () async -> Void
    ) throws(MutationError) {
        self.database = database
        self.send = send
        self.feedCache = feedCache
        self.clock = clock
        self.configuration = configuration
        self.reauthenticate = reauthenticate
        let loaded: MutationJournal.Loaded
        let viewer: User?
        let consumedDraft: String?
        do {
            (loaded, viewer, consumedDraft) = try database.transaction { db in
                try MutationJournal.resetInFlight(db)
                return (
                    try MutationJournal.load(db), try MutationJournal.viewer(db),
                    try MutationJournal.consumedDraft(db)
                )
            }
        } catch {
            throw MutationError.storage("be read", error)
        }
        var initial = State(
            jitter: SplitMix64(seed: configuration.jitterSeed ?? UInt64.random(in: 0...UInt64.max)))
        initial.nextSequence = loaded.nextSequence
        initial.unreadable = loaded.unreadable
        initial.viewer = viewer
        initial.consumedDraft = consumedDraft
        initial.queue.reserve(loaded.rows.count)
        initial.queue.setAccount(account)
        for var row in loaded.rows {
            if row.state == .inFlight { row.state = .pending }
            initial.queue.put(row)
            initial.show(row)
            if case .post(let media, _)? = row.confirmation { initial.localToServer[row.token] = media.id }
        }
        state = Mutex(initial)
        let now = now
        state.withLock { state in
            state.lastClockReading = nil
            clampDueTimes(&state, now: now)
        }
    }

    /// Opens the manager sending through the client `client` returns at each attempt (so a
    /// sign-in in between is picked up).
    ///
    /// A change made as an account is never sent by a client signed in as another one: such an
    /// attempt fails as unauthorized without reaching the server, and the change waits (the app
    /// names the new account with `setAccount(_:)`, which holds it).
    public convenience init(
        database: Database, client: @escaping @Sendable () -> APIClient, feedCache: FeedCache? = nil,
        clock: any WallClock = SystemClock(),
        configuration: Configuration = Configuration(), account: String? = nil,
        reauthenticate: @escaping @Sendable () async -> Void = {}
    ) throws(MutationError) {
        try self.init(
            database: database,
            sendAs: { mutation, token, account throws(TransportError) in
                let client = client()
                if let account, let signedIn = client.credentials?.handle, signedIn != account {
                    throw TransportError(
                        .unauthorized,
                        "signed in as @\(signedIn), but the change was made as @\(account); it is held until "
                            + "that account signs in again")
                }
                return try await client.send(mutation, clientToken: token.rawValue)
            }, feedCache: feedCache, clock: clock, configuration: configuration, account: account,
            reauthenticate: reauthenticate)
    }

    // MARK: - Reading

    /// The signed-in account's pending and in-flight mutations, in the order they were made.
    public var pending: [MutationRecord] {
        state.withLock { $0.ownRows(in: [.pending, .inFlight]) }.map(\.record)
    }

    /// The signed-in account's failed mutations, in the order they were made: show them with
    /// retry and discard.
    public var failed: [MutationRecord] {
        state.withLock { $0.ownRows(in: [.failed]) }.map(\.record)
    }

    /// Mutations other accounts made that have not reached the server (pending or failed), in
    /// the order they were made: kept, not sent, merged nowhere, until their account signs in
    /// again. Show them as held ("2 changes made as @lynn are held until @lynn signs in again").
    public var held: [MutationRecord] {
        state.withLock { state in
            state.queue.rows(in: [.pending, .inFlight, .failed]).filter { $0.account != state.queue.account }
        }.map(\.record)
    }

    /// The handle of the signed-in account: only its changes are sent, listed and merged.
    public var account: String? { state.withLock { $0.queue.account } }

    /// Names the signed-in account (its handle; nil when nobody is): new changes are made as it,
    /// and only its changes are sent, listed and merged from now on. Changes other accounts made
    /// are held (`held`): kept in the journal, never sent as this account, and sent when their
    /// account is named again, at once (the backoff is cleared, as by `networkDidChange()`). Call
    /// it on every sign-in, before the client uses the new session.
    ///
    /// - Complexity: O(n log n) in the journal's rows when the account changes.
    public func setAccount(_ account: String?) {
        let changedAccount = journalLock.withLock { _ in
            state.withLock { state -> Bool in
                guard state.queue.account != account else { return false }
                state.queue.setAccount(account)
                state.layer = OptimisticLayer()
                for row in state.queue.rows.values.sorted(by: { $0.sequence < $1.sequence }) {
                    state.show(row)
                }
                state.unauthorized.removeAll()
                return true
            }
        }
        guard changedAccount else { return }
        changed([])
        // What waited for this account waited for the sign-in, not for its backoff: it goes now.
        networkDidChange()
    }

    /// The journal's record of a mutation, or nil once it is confirmed and no longer needed (or
    /// discarded).
    public func record(for token: MutationToken) -> MutationRecord? {
        state.withLock { $0.queue.rows[token] }?.record
    }

    /// The server id of a post made on this device, once confirmed (for `local:<token>` ids).
    public func serverID(of token: MutationToken) -> MediaID? {
        state.withLock { $0.localToServer[token] }
    }

    /// Journal rows this build could not read (written by a newer build, or damaged), in journal
    /// order: kept, never sent; show them as failed, with `discardUnreadable(_:)` to give them up.
    public var unreadableRows: [UnreadableMutation] { state.withLock { $0.unreadable } }

    /// Whether a change made from the app-side draft `id` was journaled (with
    /// `enqueue(_:consumingDraft:)`), in this launch or an earlier one: such a draft was posted,
    /// and is to be forgotten, not shown again.
    public func isDraftConsumed(_ id: String) -> Bool {
        state.withLock { $0.consumedDraft == id }
    }

    /// Who new posts and replies are shown as while pending (nil: a placeholder "You").
    public var viewer: User? { state.withLock { $0.viewer } }

    /// Sets who new posts and replies are shown as while pending (the signed-in user), kept in
    /// the journal's database for the next launches. Until it is set, the author of the first
    /// confirmed post is taken; before that, posts show a placeholder author ("You") until the
    /// viewer is known.
    /// The same viewer again (every launch sets the one the journal already keeps) writes
    /// nothing: a durable commit costs a launch several syncs.
    public func setViewer(_ user: User?) {
        let written = journalLock.withLock { _ -> Bool in
            guard state.withLock({ $0.viewer }) != user else { return false }
            writeJournal("the signed-in viewer") { db in try MutationJournal.saveViewer(user, db) }
            state.withLock { $0.viewer = user }
            return true
        }
        if written { changed([]) }
    }

    /// How many journal commits were made (a burst counts once).
    public var commitCount: Int { journalLock.withLock { $0.commits } }

    // MARK: - Observing

    /// Calls `handler` after every change to the optimistic layer or the pending and failed
    /// lists, on the thread that made it, until the returned observation is cancelled or
    /// released. Keep it quick; it may read the manager. This is the one way to hear of changes:
    /// the app runtime observes once and coalesces what arrives before the next frame into one
    /// re-merge of the screen shown (`MutationChange.changesContent` says whether lists of posts
    /// need it).
    public func observe(_ handler: @escaping @Sendable (MutationChange) -> Void) -> ObservationToken {
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers[state.nextObserverID] = handler
            return state.nextObserverID
        }
        return ObservationToken { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Bumps the revision and tells observers and idle waiters; call after releasing `state`.
    /// `content` is false when only the pending and failed lists changed (see
    /// `MutationChange.changesContent`).
    func changed(_ tokens: Set<MutationToken>, content: Bool = true) {
        let (change, observers, waiters) = state.withLock { state in
            state.revision += 1
            let waiters = state.idleWaiters
            state.idleWaiters = []
            return (
                MutationChange(revision: state.revision, tokens: tokens, changesContent: content),
                Array(state.observers.values), waiters
            )
        }
        for waiter in waiters { waiter.resume(returning: false) }
        for observer in observers { observer(change) }
    }

    /// The clock's time in milliseconds since 1970.
    var now: Int64 { clock.now.wireMilliseconds }
}
