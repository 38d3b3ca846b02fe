import Foundation
import Wire

/// The backend in process, as a `Transport`: requests go through a fault layer (latency,
/// 5xx, lost responses, offline; switchable while running) to the server's routes, with bodies
/// as JSON bytes both ways, exactly as over HTTP.
///
/// ```swift
/// let transport = EmbeddedTransport(server: server, profile: .flaky, seed: 7)
/// transport.setFaultProfile(.offline)
/// ```
public final class EmbeddedTransport: Transport, FaultControl {
    /// The server requests reach.
    public let server: BackendServer
    /// The fault layer in front of it.
    public let faults: FaultInjectingTransport

    /// Puts `server` behind a fault layer.
    ///
    /// - Parameters:
    ///   - server: the backend the requests reach.
    ///   - profile: the faults to start with.
    ///   - clock: where latency is slept; defaults to the server's clock.
    ///   - seed: seeds the fault draws.
    public init(
        server: BackendServer, profile: FaultProfile = .perfect, clock: (any WallClock)? = nil,
        seed: UInt64 = 0
    ) {
        self.server = server
        faults = FaultInjectingTransport(
            upstream: InProcessTransport(server: server), profile: profile, clock: clock ?? server.clock,
            seed: seed)
    }

    /// Sends `request` through the faults to the server.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        try await faults.send(request)
    }

    /// The profile in force.
    public var faultProfile: FaultProfile { faults.faultProfile }

    /// Switches the profile.
    public func setFaultProfile(_ profile: FaultProfile) { faults.setFaultProfile(profile) }

    /// Queues outcomes for the next requests.
    public func injectFaults(_ faults: [ScriptedFault]) { self.faults.injectFaults(faults) }

    /// What happened to the requests so far.
    public var statistics: FaultInjectingTransport.Statistics { faults.statistics }
}

/// Calls the server's routes directly, framing the response as HTTP would (`Content-Length`).
struct InProcessTransport: Transport {
    let server: BackendServer

    func send(_ request: Request) async throws(TransportError) -> Response {
        var response = await server.handle(request)
        response.headers["Content-Length"] = String(response.body.count)
        return response
    }
}
