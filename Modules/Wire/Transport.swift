/// Sends a request and returns the response: the one interface every way of reaching the server
/// implements (in process, over HTTP, with faults injected).
///
/// A transport returns every response that arrived, whatever its status: a 404 is an answer,
/// not a transport failure. It throws only when no response could be had: `offline`,
/// `timeout` (the server may have applied the request) or `cancelled`. Callers turn a failed
/// response into an error with `Response.error(for:now:)`, so statuses are classified the same
/// way whichever transport carried them.
///
/// ```swift
/// let response = try await transport.send(Request(.get, "/v1/feed"))
/// if let error = response.error(for: request, now: clock.now) { throw error }
/// ```
public protocol Transport: Sendable {
    /// Sends `request` and returns the response that arrived.
    ///
    /// - Throws: `TransportError` of class `offline`, `timeout` or `cancelled`.
    func send(_ request: Request) async throws(TransportError) -> Response
}
