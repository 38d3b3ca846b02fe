import Foundation
import Wire

extension HTTPTransport {
    /// The `TransportError` for a failed exchange: `offline` when the request surely never
    /// reached the server, `cancelled` when the caller gave up, and otherwise `timeout`, because
    /// the server may have received and applied the request (a retry must reuse its
    /// `Idempotency-Key`).
    func classify(_ failure: ClientFailure, limit: Duration, request: String) -> TransportError {
        let server = baseURL.absoluteString
        switch failure {
        case .refused:
            return TransportError(
                .offline,
                "cannot connect to \(server): the connection was refused; check that backend-server is running "
                    + "there (swift run backend-server)",
                request: request)
        case .unknownHost(let reason):
            return TransportError(
                .offline, "cannot find the host of \(server) (\(reason)); check the server address",
                request: request)
        case .unreachable(let reason):
            return TransportError(.offline, "cannot reach \(server): \(reason)", request: request)
        case .handshake(let reason):
            return TransportError(
                .offline, "cannot reach \(server) securely: \(reason); nothing was sent", request: request)
        case .invalidRequest(let reason):
            return TransportError(
                .offline, "cannot send the request: \(reason); nothing was sent", request: request)
        case .expired:
            return TransportError(
                .timeout,
                "no response from \(server) within \(limit); the server may have applied the request",
                request: request)
        case .cancelled:
            return TransportError(.cancelled, "the request was cancelled while in flight", request: request)
        case .lost(let reason):
            return TransportError(
                .timeout,
                "the response was lost: the connection to \(server) closed before the whole response arrived "
                    + "(\(reason)); the server may have applied the request",
                request: request)
        case .malformed(let reason):
            return TransportError(
                .timeout,
                "the server at \(server) sent something that is not an HTTP/1.1 response (\(reason)); "
                    + "the request may have been applied", request: request)
        }
    }
}
