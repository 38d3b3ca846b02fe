import Composition
import FeedCaching
import ServerAPI
import Storage
import Synchronization

/// The `mutations.replay` service: opens the app's `MutationManager` on the journal in the app
/// database, rebuilding the optimistic layer (in-flight mutations become pending again), and
/// starts sending; stops sending cleanly on stop. On `foreground` it clears the backoff, since
/// the network may be back. The manager's account is the one the client is signed in as at start
/// (a saved session); the app names the next one with `MutationManager.setAccount(_:)`.
///
/// Reads: `NetworkClockKey`, `MutationConfigurationKey`, `MutationReauthenticationKey`.
/// Depends on: `storage.database`, `network.client`, `feed.cache`.
///
/// ```swift
/// let manager = try app.service(.mutationReplay)?.manager
/// try await manager?.enqueue(.like("m42"))
/// ```
public final class MutationReplayService: Service {
    /// The service's id, `mutations.replay`.
    public static let id = "mutations.replay"

    private let state = Mutex<MutationManager?>(nil)

    /// Makes the service; it opens the manager when started.
    public init() {}

    /// Rebuilds the manager from the journal and starts sending.
    public func start(_ context: ServiceContext) async throws {
        let database = try context.service(.appDatabase).database
        let network = try context.service(.networkClient)
        // An app without a feed (no `feed.cache`) still sends changes; confirmed facts then only
        // reach the screens through the manager's merges.
        let cache = try context.optionalService(.feedCache)?.cache
        let manager = try MutationManager(
            database: database, client: { network.client }, feedCache: cache,
            clock: context.values[NetworkClockKey.self],
            configuration: context.values[MutationConfigurationKey.self],
            account: network.client.credentials?.handle,
            reauthenticate: context.values[MutationReauthenticationKey.self] ?? {})
        manager.start()
        state.withLock { $0 = manager }
    }

    /// Stops sending; an attempt in flight is cancelled and its mutation stays pending.
    public func stop() async {
        let manager = state.withLock { state -> MutationManager? in
            defer { state = nil }
            return state
        }
        await manager?.stop()
    }

    /// Clears the backoff when the app comes to the front.
    public func handle(_ event: LifecycleEvent) async {
        if case .foreground = event { state.withLock { $0 }?.networkDidChange() }
    }

    /// The manager.
    ///
    /// - Throws: `MutationError` before start or after stop.
    public var manager: MutationManager {
        get throws(MutationError) {
            guard let manager = state.withLock({ $0 }) else {
                throw MutationError(
                    .notRunning,
                    "service 'mutations.replay' is not running; enable it in the manifest and depend on it so it "
                        + "starts first")
            }
            return manager
        }
    }
}

extension ServiceKey where S == MutationReplayService {
    /// The mutation manager's service, `mutations.replay`.
    public static var mutationReplay: Self { .init(MutationReplayService.id) }
}
