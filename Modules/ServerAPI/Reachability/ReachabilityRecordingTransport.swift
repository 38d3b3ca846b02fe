import Wire

/// A transport that passes every request to `base` and records in a ``ServerReachability``
/// what it found: an answer (any status) means the server is reachable, an `offline` failure
/// that it is not. `network.client` sends all of its requests through one.
public struct ReachabilityRecordingTransport: Transport {
    /// The transport that carries the requests.
    public let base: any Transport
    /// Where what they found is recorded.
    public let reachability: ServerReachability

    /// Wraps `base`, recording into `reachability`.
    public init(_ base: any Transport, recordingInto reachability: ServerReachability) {
        self.base = base
        self.reachability = reachability
    }

    /// Sends `request` through `base` and records whether the server answered.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        do {
            let response = try await base.send(request)
            reachability.record(.reachable)
            return response
        } catch {
            if error.errorClass == .offline { reachability.record(.unreachable) }
            throw error
        }
    }
}
