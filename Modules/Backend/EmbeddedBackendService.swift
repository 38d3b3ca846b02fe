import Composition
import Synchronization
import Wire

/// The `backend.embedded` service: opens (creating and seeding) the embedded backend in the
/// directory of `BackendDirectoryKey` and offers its `EmbeddedTransport` as a `TransportSource`.
///
/// Inert when `EmbeddedBackendEnabledKey` is false (the app talks to a remote server): it opens
/// nothing and its `transport` is nil.
///
/// Reads: `BackendDirectoryKey`, `BackendSeedKey`, `BackendClockKey`, `EmbeddedFaultProfileKey`,
/// `EmbeddedBackendEnabledKey`. Depends on no service.
public final class EmbeddedBackendService: Service, TransportSource {
    private let state = Mutex<EmbeddedTransport?>(nil)

    /// Makes the service; it opens the backend when started.
    public init() {}

    /// Opens the backend (in demo mode: the seed accounts sign in with `DemoAccounts.password`)
    /// unless disabled.
    public func start(_ context: ServiceContext) async throws {
        guard context.values[EmbeddedBackendEnabledKey.self] else { return }
        let clock = context.values[BackendClockKey.self]
        let seed = context.values[BackendSeedKey.self]
        let server = try BackendServer(
            directory: context.values[BackendDirectoryKey.self], seed: seed, clock: clock, demoMode: true)
        let transport = EmbeddedTransport(
            server: server, profile: context.values[EmbeddedFaultProfileKey.self], clock: clock, seed: seed)
        state.withLock { $0 = transport }
    }

    /// Closes the backend's database.
    public func stop() async {
        let transport = state.withLock { state -> EmbeddedTransport? in
            defer { state = nil }
            return state
        }
        transport?.server.close()
    }

    /// The embedded transport while running and enabled.
    public var embeddedTransport: EmbeddedTransport? { state.withLock { $0 } }

    /// The embedded transport while running and enabled, else nil.
    public var transport: (any Transport)? { embeddedTransport }
}
