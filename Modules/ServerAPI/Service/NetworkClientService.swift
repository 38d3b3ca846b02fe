import Basics
import Composition
import MediaModel
import Synchronization
import Wire

/// The `network.client` service: the app's `APIClient` and its `MediaStore`.
///
/// Its transport comes from the first of its transport sources (its dependencies, in the order
/// given) that offers one, so the transport is pluggable: `network.http` when a server URL is
/// given, else the embedded backend. Its viewer is `ViewerKey`'s credentials (a saved session), else
/// nobody until the launcher signs in (``signIn(_:)``).
///
/// Every request the client sends is recorded in ``reachability``, so the app can say when the
/// server cannot be reached.
///
/// Reads: `ViewerKey`, `NetworkClockKey`. Depends on: its transport sources.
public final class NetworkClientService: Service, NetworkClient {
    /// The service's id, `network.client`.
    public static let id = "network.client"

    private struct State {
        var client: APIClient
        var sourceID: String?
        var serverAddress: String?
    }

    /// The services it may take a transport from, in order of preference.
    public let transportSources: [TransportSourceReference]
    /// The single source of truth for shared facts across the app's surfaces.
    public let mediaStore = MediaStore()
    /// Whether the server can be reached, as the client's own requests found it (every request
    /// of `client` is recorded here).
    public let reachability = ServerReachability()
    private let state: Mutex<State>

    /// Makes the service.
    public init(transportSources: [TransportSourceReference]) {
        self.transportSources = transportSources
        state = Mutex(
            State(client: APIClient(transport: NotStartedTransport(), bearerToken: nil), sourceID: nil))
    }

    /// The definition of `network.client` taking its transport from `transportSources`.
    public static func definition(transportSources: [TransportSourceReference]) -> ServiceDefinition {
        ServiceDefinition(.networkClient, dependencies: transportSources.map(\.serviceID)) { _ in
            NetworkClientService(transportSources: transportSources)
        }
    }

    /// Picks the transport and the viewer.
    ///
    /// - Throws: `NetworkClientError` when no source offers a transport.
    public func start(_ context: ServiceContext) async throws {
        for reference in transportSources {
            let source = try reference.resolve(context)
            guard let transport = source.transport else { continue }
            let client = APIClient(
                transport: ReachabilityRecordingTransport(transport, recordingInto: reachability),
                credentials: context.values[ViewerKey.self],
                clock: context.values[NetworkClockKey.self])
            state.withLock {
                $0 = State(client: client, sourceID: reference.serviceID, serverAddress: source.serverAddress)
            }
            return
        }
        let names = transportSources.map { "'\($0.serviceID)'" }.joined(separator: ", ")
        throw NetworkClientError(
            message: "service 'network.client' found no transport: none of its transport sources "
                + "(\(names.isEmpty ? "none declared" : names)) offers one; enable one in the manifest, and check "
                + "that the launcher did not disable it (EmbeddedBackendEnabledKey is false when --server is given)"
        )
    }

    /// The client (signed in as the current viewer).
    public var client: APIClient { state.withLock { $0.client } }

    /// The id of the service the transport came from.
    public var transportSourceID: String? { state.withLock { $0.sourceID } }

    /// Where requests go, as the transport's source names it (`http://127.0.0.1:8080`), or nil
    /// for a transport in process: what a screen names when the server cannot be reached.
    public var serverAddress: String? { state.withLock { $0.serverAddress } }

    /// Signs in with other credentials (after onboarding, say), or signs out with nil; later
    /// calls to `client` use them.
    public func signIn(_ credentials: Credentials?) {
        state.withLock { $0.client = $0.client.signedIn(with: credentials) }
    }

    /// A stable name for the signed-in account, for caches that belong to one viewer: a hash of
    /// the account's handle, so it stays the same when the token is renewed. Bare-token
    /// credentials (tests, tools) name no account; their token stands in. Empty when signed out.
    public var viewerIdentity: String {
        guard let credentials = client.credentials else { return "" }
        if let handle = credentials.handle {
            return String(FNV1a.hash(("account:" + handle).utf8), radix: 16)
        }
        return String(FNV1a.hash(credentials.token.utf8), radix: 16)
    }
}

/// What a screen asks of the app's connection to the backend: the client, signed in as the
/// viewer; the media store every surface reads facts from; whether the server can be reached.
///
/// `NetworkClientService` (`network.client`) is the app's one implementation; screens hold this
/// interface (through `AppContext`). The client runs on any `Transport`, so a screen test gives
/// it a stub and needs neither a backend nor sockets.
public protocol NetworkClient: AnyObject, Sendable {
    /// The client, signed in as the current viewer.
    var client: APIClient { get }
    /// The single source of truth for shared facts across the app's surfaces.
    var mediaStore: MediaStore { get }
    /// Whether the server can be reached, as the client's own requests found it.
    var reachability: ServerReachability { get }
    /// A stable name for the signed-in account, for caches that belong to one viewer.
    var viewerIdentity: String { get }
    /// Where requests go (`http://127.0.0.1:8080`), or nil for a transport in process.
    var serverAddress: String? { get }
    /// Signs in with other credentials, or out with nil; later calls to `client` use them.
    func signIn(_ credentials: Credentials?)
}

/// `network.client` could not start.
public struct NetworkClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    public let message: String

    /// The message.
    public var description: String { message }
}

/// The transport of a client whose service has not started: every request fails, saying so.
struct NotStartedTransport: Transport {
    func send(_ request: Request) async throws(TransportError) -> Response {
        throw TransportError(
            .offline, "service 'network.client' has not started; depend on it so it starts first",
            request: "\(request.method) \(request.path)")
    }
}

extension ServiceKey where S == NetworkClientService {
    /// The network client service, `network.client`.
    public static var networkClient: Self { .init(NetworkClientService.id) }
}
