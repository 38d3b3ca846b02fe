import Foundation
import Synchronization
import Wire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` over real HTTP/1.1 (URLSession), to a backend served by `backend-server`.
///
/// It follows the rules every transport shares: it returns every response that arrived, 4xx and
/// 5xx included (with their `Retry-After` and other headers), so `Response.error(for:now:)`
/// classifies them exactly as for the embedded transport, and throws only when no response
/// could be had:
///
/// | what happened | thrown |
/// | --- | --- |
/// | the connection was refused, the host is unknown, no network | `offline` (nothing was sent) |
/// | no response within `timeout` (plus a long poll's `wait`) | `timeout` |
/// | the connection closed before the whole response arrived | `timeout`, "response lost": the server may have applied the request, so a retry must reuse its `Idempotency-Key` |
/// | the calling task was cancelled | `cancelled` (the URLSession task is cancelled too) |
///
/// Headers pass through as set, the `Authorization: Bearer` token of `APIClient` included.
///
/// Reads (GET and HEAD) share keep-alive connections. A change (any other method) goes out on a
/// connection of its own, closed after its response: when a server loses a change's response by
/// closing a reused connection, libcurl under URLSession retries on a fresh one but cannot
/// rewind the body it already sent, and the request stalls until the timeout. On a connection
/// of its own the loss shows at once, and the mutation manager resends with the same
/// `Idempotency-Key`.
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
    /// Keep-alive connections for reads.
    private let session: URLSession
    /// Connections for changes, one per request (`Connection: close`).
    private let changeSession: URLSession

    /// Makes a transport to `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: the server's base URL (`http://127.0.0.1:8080`); request targets are appended.
    ///   - timeout: the longest a request may take (default 15 s); a long poll gets its `wait` on
    ///     top.
    ///   - maximumConnections: connections open to the server at once for reads, and as many
    ///     for changes (default 6 each).
    public init(baseURL: URL, timeout: Duration = .seconds(15), maximumConnections: Int = 6) {
        self.baseURL = baseURL
        self.timeout = max(timeout, .milliseconds(1))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maximumConnections)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The transport enforces each request's own limit (long polls get longer); URLSession's
        // session-wide inactivity timeout would cut them short, so it is set out of the way.
        configuration.timeoutIntervalForRequest = 24 * 3600
        session = URLSession(configuration: configuration)
        changeSession = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
        changeSession.invalidateAndCancel()
    }

    /// Sends `request` and returns the response that arrived, whatever its status.
    ///
    /// - Throws: `offline`, `timeout` (including a response lost mid-way) or `cancelled`.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        let named = "\(request.method) \(request.path)"
        if Task.isCancelled {
            throw TransportError(.cancelled, "the request was cancelled before it was sent", request: named)
        }
        guard let url = url(for: request) else {
            throw TransportError(
                .offline,
                "cannot make a URL from the server address '\(baseURL.absoluteString)' and the target "
                    + "'\(request.target)'; check the server address (http://HOST:PORT)",
                request: named)
        }
        let limit = limit(for: request)
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.seconds(limit))
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        // Every request but GET and HEAD carries a body, if only an empty one, so it is framed
        // with Content-Length (never chunked, which the server refuses).
        let isChange = request.method != .get && request.method != .head
        if isChange {
            urlRequest.httpBody = request.body
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        }

        let session = isChange ? changeSession : session
        // The caller gets the first of: the exchange's result, the limit passing, its own
        // cancellation. It never waits for URLSession to acknowledge a cancel: cancelling a task
        // can block in FoundationNetworking (its queue may be busy with that very response), so
        // the cancel is sent from a dispatch thread and nothing here waits for it.
        let expired = Expiry()
        let outcome = Outcome()
        let exchange = Task {
            do {
                outcome.resolve(.success(try await session.data(for: urlRequest)))
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        let watchdog = Task {
            try await Task.sleep(for: limit)
            expired.fire()
            outcome.resolve(.failure(CancellationError()))
            Self.cancelWithoutWaiting(exchange)
        }
        let result = await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            outcome.resolve(.failure(CancellationError()))
            Self.cancelWithoutWaiting(exchange)
        }
        watchdog.cancel()
        switch result {
        case .success(let (data, response)):
            guard let http = response as? HTTPURLResponse else {
                throw TransportError(
                    .timeout,
                    "the server at \(baseURL.absoluteString) sent something that is not an HTTP response; "
                        + "the request may have been applied", request: named)
            }
            return Response(status: http.statusCode, headers: Self.headers(of: http), body: data)
        case .failure(let error):
            throw classify(error, expired: expired.hasFired, limit: limit, request: named)
        }
    }

    /// The base URL with the request's target appended.
    func url(for request: Request) -> URL? {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + request.target)
    }

    /// `timeout`, plus the `wait` of a long poll.
    func limit(for request: Request) -> Duration {
        guard let wait = request.queryValue("wait").flatMap({ Int($0) }), wait > 0 else { return timeout }
        return timeout + .seconds(min(wait, 3600))
    }

    private static func headers(of response: HTTPURLResponse) -> Headers {
        var headers = Headers()
        let fields = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        for (name, value) in fields.sorted(by: { $0.0 < $1.0 }) { headers.add(name, value) }
        return headers
    }

    /// Cancels `task` from a dispatch thread, so a cancel that blocks holds neither the caller
    /// nor a thread of the cooperative pool.
    private static func cancelWithoutWaiting(_ task: Task<Void, Never>) {
        DispatchQueue.global().async { task.cancel() }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }
}

/// Whether a request's time ran out (set by its watchdog before it cancels the exchange).
private final class Expiry: Sendable {
    private let fired = Atomic<Bool>(false)

    func fire() { fired.store(true, ordering: .releasing) }

    var hasFired: Bool { fired.load(ordering: .acquiring) }
}

/// The result of one exchange, delivered once to the one caller waiting for it: the first of
/// the response, the deadline and the caller's cancellation wins; later ones are dropped.
private final class Outcome: Sendable {
    private struct State {
        var result: Result<(Data, URLResponse), any Error>?
        var waiter: CheckedContinuation<Result<(Data, URLResponse), any Error>, Never>?
    }

    private let state = Mutex(State())

    /// Settles the outcome, unless it is settled already.
    func resolve(_ result: Result<(Data, URLResponse), any Error>) {
        let waiter = state.withLock {
            state -> CheckedContinuation<Result<(Data, URLResponse), any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The outcome, once settled.
    var value: Result<(Data, URLResponse), any Error> {
        get async {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Result<(Data, URLResponse), any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}
