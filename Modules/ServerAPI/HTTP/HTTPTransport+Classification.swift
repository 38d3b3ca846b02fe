import Foundation
import Wire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// The `TransportError` for a failed exchange: `offline` when the request surely never
    /// reached the server, `cancelled` when the caller gave up, and otherwise `timeout`, because
    /// the server may have received and applied the request (a retry must reuse its
    /// `Idempotency-Key`).
    func classify(_ error: any Error, expired: Bool, limit: Duration, request: String) -> TransportError {
        let server = baseURL.absoluteString
        let code = (error as? URLError)?.code
        if expired && (code == .cancelled || code == .timedOut || error is CancellationError) {
            return TransportError(
                .timeout,
                "no response from \(server) within \(limit); the server may have applied the request",
                request: request)
        }
        if code == .cancelled || error is CancellationError {
            return TransportError(.cancelled, "the request was cancelled while in flight", request: request)
        }
        guard let code else {
            return TransportError(
                .timeout,
                "the exchange with \(server) failed (\(error)); the server may have applied the request",
                request: request)
        }
        switch code {
        case .cannotConnectToHost:
            return TransportError(
                .offline,
                "cannot connect to \(server): the connection was refused; check that backend-server is running "
                    + "there (swift run backend-server)",
                request: request)
        case .cannotFindHost, .dnsLookupFailed:
            return TransportError(
                .offline, "cannot find the host of \(server); check the server address", request: request)
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive,
            .secureConnectionFailed:
            return TransportError(
                .offline, "cannot reach \(server): \(error.localizedDescription)", request: request)
        case .timedOut:
            return TransportError(
                .timeout,
                "no response from \(server) within \(limit); the server may have applied the request",
                request: request)
        default:
            return TransportError(
                .timeout,
                "the response was lost: the connection to \(server) closed before the whole response arrived "
                    + "(\(error.localizedDescription)); the server may have applied the request",
                request: request)
        }
    }
}
