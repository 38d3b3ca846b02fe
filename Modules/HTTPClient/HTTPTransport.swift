import Foundation
import Glibc
import Synchronization
import Wire

/// A `Transport` over real HTTP/1.1 (a small client of our own on POSIX sockets, with TLS from
/// the system's OpenSSL for `https`), to a backend served by `backend-server`.
///
/// It follows the rules every transport shares: it returns every response that arrived, 4xx and
/// 5xx included (with their `Retry-After` and other headers), so `Response.error(for:now:)`
/// classifies them exactly as for the embedded transport, and throws only when no response
/// could be had:
///
/// | what happened | thrown |
/// | --- | --- |
/// | the connection was refused, the host is unknown, no network, the TLS handshake or the server's certificate failed | `offline` (nothing was sent) |
/// | no response within `timeout` (plus a long poll's `wait`) | `timeout` |
/// | the connection closed before the whole response arrived | `timeout`, "response lost": the server may have applied the request, so a retry must reuse its `Idempotency-Key` |
/// | the calling task was cancelled | `cancelled` (the connection is shut down at once) |
///
/// Headers pass through as set, the `Authorization: Bearer` token of `APIClient` included; the
/// transport adds `Host` (with the port) and frames a body with `Content-Length`. A response's
/// body is framed by `Content-Length`, `Transfer-Encoding: chunked`, or the server's closing the
/// connection; a response to HEAD, and a 1xx, 204 or 304, has none.
///
/// Reads (GET and HEAD) share keep-alive connections. A read sent on a kept connection that the
/// server had meanwhile closed (it ends before any byte of a response) is sent once more on a new
/// connection, which is safe for a read. A change (any other method) goes out on a connection of
/// its own with `Connection: close`, and is never resent by the transport: when its connection
/// is lost, the loss shows at once as a lost response, and the mutation manager resends with the
/// same `Idempotency-Key`.
///
/// Each exchange's blocking socket work runs on a thread of its own, never on the caller's; the
/// deadline and cancellation shut its socket down from outside, so the caller is answered at
/// once, whatever the socket is doing.
///
/// ```swift
/// let transport = HTTPTransport(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let client = APIClient(transport: transport, credentials: credentials)
/// let page = try await client.homeFeed()
/// ```
public final class HTTPTransport: Transport {
    /// The server's base URL (`http://127.0.0.1:8080`); request targets are appended to it.
    public let baseURL: URL
    /// How long a request may take, from sending to the last byte of the response. A long poll
    /// (`GET /v1/events?wait=N`) gets `N` seconds more.
    public let timeout: Duration
    /// Where to connect; nil when `baseURL` is not an `http(s)://HOST[:PORT]` address.
    private let endpoint: ClientEndpoint?
    /// The TLS context for `https` (or why none could be made); nil for `http`.
    private let tls: Result<TLSContext, ClientFailure>?
    /// Connections for reads, kept alive between them.
    private let reads: ConnectionPool
    /// Connections for changes, one per request (`Connection: close`).
    private let changes: ConnectionPool

    /// Makes a transport to `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: the server's base URL (`http://127.0.0.1:8080` or `https://...`); request
    ///     targets are appended.
    ///   - timeout: the longest a request may take (default 15 s); a long poll gets its `wait` on
    ///     top.
    ///   - maximumConnections: connections open to the server at once for reads, and as many
    ///     for changes (default 6 each).
    public convenience init(baseURL: URL, timeout: Duration = .seconds(15), maximumConnections: Int = 6) {
        self.init(
            baseURL: baseURL, timeout: timeout, maximumConnections: maximumConnections,
            trustedCertificates: nil)
    }

    /// Makes a transport that trusts only the certificates in the PEM file `trustedCertificates`
    /// for `https` (the system's trust store when nil): for tests against a server with a
    /// certificate of their own.
    package init(baseURL: URL, timeout: Duration, maximumConnections: Int, trustedCertificates: String?) {
        self.baseURL = baseURL
        self.timeout = max(timeout, .milliseconds(1))
        endpoint = ClientEndpoint(baseURL: baseURL)
        if endpoint?.isSecure == true {
            do throws(ClientFailure) {
                tls = .success(try TLSContext(trustedCertificates: trustedCertificates))
            } catch {
                tls = .failure(error)
            }
        } else {
            tls = nil
        }
        reads = ConnectionPool(capacity: maximumConnections)
        changes = ConnectionPool(capacity: maximumConnections)
    }

    /// Sends `request` and returns the response that arrived, whatever its status.
    ///
    /// - Throws: `offline`, `timeout` (including a response lost mid-way) or `cancelled`.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        let named = "\(request.method) \(request.path)"
        if Task.isCancelled {
            throw TransportError(.cancelled, "the request was cancelled before it was sent", request: named)
        }
        guard let endpoint, let target = target(for: request) else {
            throw TransportError(
                .offline,
                "cannot make a URL from the server address '\(baseURL.absoluteString)' and the target "
                    + "'\(request.target)'; check the server address (http://HOST:PORT)",
                request: named)
        }
        let limit = limit(for: request)
        let exchange: ClientExchange
        do throws(ClientFailure) {
            let context = try tls?.get()
            exchange = try ClientExchange(
                request, target: target, endpoint: endpoint, tls: context,
                pool: request.method == .get || request.method == .head ? reads : changes, limit: limit)
        } catch {
            throw classify(error, limit: limit, request: named)
        }

        // The caller gets the first of: the exchange's result, the limit passing, its own
        // cancellation. The exchange runs on a thread of its own; the deadline and a cancel shut
        // its socket down (which ends any blocked call at once) and never wait for it.
        let control = ExchangeControl()
        let outcome = Outcome()
        let thread = Thread {
            Self.blockAsynchronousSignals()
            outcome.resolve(exchange.run(control: control))
        }
        thread.name = "HTTPTransport exchange"
        thread.start()
        let watchdog = Task {
            try await Task.sleep(for: limit)
            outcome.resolve(.failure(.expired))
            control.abandon()
        }
        let result = await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            outcome.resolve(.failure(.cancelled))
            control.abandon()
        }
        watchdog.cancel()
        switch result {
        case .success(let response): return response
        case .failure(let failure): throw classify(failure, limit: limit, request: named)
        }
    }

    /// The request-target on the wire: the base URL's path, then the request's target.
    func target(for request: Request) -> String? {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.target),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// `timeout`, plus the `wait` of a long poll.
    func limit(for request: Request) -> Duration {
        guard let wait = request.queryValue("wait").flatMap({ Int($0) }), wait > 0 else { return timeout }
        return timeout + .seconds(min(wait, 3600))
    }

    /// Blocks the asynchronous signals on the calling thread (an exchange's own): none of its
    /// socket calls is then interrupted (`EINTR`) by a signal meant for the process (SIGCHLD, say),
    /// and a TLS write to a closed peer (OpenSSL writes with `write`, which cannot take
    /// `MSG_NOSIGNAL`) fails with `EPIPE` instead of raising SIGPIPE; the pending signal is
    /// dropped when the thread ends. Faults (SIGSEGV and the like) stay unblocked.
    private static func blockAsynchronousSignals() {
        var signals = sigset_t()
        sigfillset(&signals)
        for fault in [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS] {
            sigdelset(&signals, fault)
        }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}

/// The result of one exchange, delivered once to the one caller waiting for it: the first of
/// the response, the deadline and the caller's cancellation wins; later ones are dropped.
private final class Outcome: Sendable {
    private struct State {
        var result: Result<Response, ClientFailure>?
        var waiter: CheckedContinuation<Result<Response, ClientFailure>, Never>?
    }

    private let state = Mutex(State())

    /// Settles the outcome, unless it is settled already.
    func resolve(_ result: Result<Response, ClientFailure>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Response, ClientFailure>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The outcome, once settled.
    var value: Result<Response, ClientFailure> {
        get async {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Result<Response, ClientFailure>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}
