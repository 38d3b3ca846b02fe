import Composition
import Foundation
import Synchronization
import Wire

/// The `network.http` service: a `TransportSource` offering an `HTTPTransport` to the server of
/// `ServerURLKey` (`--server http://127.0.0.1:8080`), behind a `FaultInjectingTransport` so
/// simulated network conditions (`HTTPFaultProfileKey`, `FaultControl`) work over HTTP too.
///
/// Inert when `ServerURLKey` is nil (the app uses the embedded backend): it offers no transport,
/// so `network.client` takes the next source. It never contacts the server at start: an app
/// launches from its cache even when the server is down, and requests then fail `offline`.
///
/// The launcher signs in: `ViewerKey` (a saved session), or
/// `NetworkClientService.signIn(_:)` after `POST /v1/sessions`.
///
/// Reads: `ServerURLKey`, `HTTPTimeoutKey`, `HTTPFaultProfileKey`, `HTTPFaultClockKey`. Depends
/// on no service.
public final class HTTPTransportService: Service, TransportSource {
    /// The service's id, `network.http`.
    public static let id = "network.http"

    private struct Running {
        var http: HTTPTransport
        var faults: FaultInjectingTransport
    }

    private let state = Mutex<Running?>(nil)

    /// Makes the service; it makes its transport when started.
    public init() {}

    /// Makes the transport when a server URL is set.
    ///
    /// - Throws: `ServerURLError` when the URL is not `http(s)://HOST[:PORT]`.
    public func start(_ context: ServiceContext) async throws {
        guard let url = context.values[ServerURLKey.self] else { return }
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw ServerURLError(
                message: "server URL '\(url.absoluteString)' is not an http://HOST:PORT address; "
                    + "pass one such as http://127.0.0.1:8080")
        }
        let http = HTTPTransport(baseURL: url, timeout: context.values[HTTPTimeoutKey.self])
        let faults = FaultInjectingTransport(
            upstream: http, profile: context.values[HTTPFaultProfileKey.self],
            clock: context.values[HTTPFaultClockKey.self], seed: 1)
        state.withLock { $0 = Running(http: http, faults: faults) }
    }

    /// Drops the transport.
    public func stop() async { state.withLock { $0 = nil } }

    /// The HTTP transport while running with a server URL, else nil.
    public var httpTransport: HTTPTransport? { state.withLock { $0?.http } }

    /// The simulated network conditions in front of the server, while running with a server URL.
    public var faultControl: (any FaultControl)? { state.withLock { $0?.faults } }

    /// The transport (faults, then HTTP) while running with a server URL, else nil.
    public var transport: (any Transport)? { state.withLock { $0?.faults } }

    /// The server's URL while running with one (`http://127.0.0.1:8080`), else nil.
    public var serverAddress: String? { httpTransport?.baseURL.absoluteString }
}

extension ServiceKey where S == HTTPTransportService {
    /// The HTTP transport source, `network.http`.
    public static var httpBackend: Self { .init(HTTPTransportService.id) }
}
