/// Why a request failed: its class (offline, timeout, 404, 429, ...), the status and server
/// error code when a response arrived, the server's `Retry-After` delay, and a message saying
/// what went wrong, where, and what to do.
///
/// ```swift
/// do { _ = try await client.homeFeed() } catch {
///     if error.isRetryable { schedule(after: error.retryAfter ?? backoff) }
/// }
/// ```
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public var errorClass: ErrorClass
    /// What happened, quoting the server's message when there was one.
    public var detail: String
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// How long the server asked to wait before retrying (429, 503), when it said.
    public var retryAfter: Duration?
    /// The server's error code (`"not_found"`) when the body had the shared error shape.
    public var serverCode: String?
    /// The request, as `METHOD /path`, when known.
    public var request: String?

    /// Makes an error.
    public init(
        _ errorClass: ErrorClass, _ detail: String, status: Int? = nil, retryAfter: Duration? = nil,
        serverCode: String? = nil, request: String? = nil
    ) {
        self.errorClass = errorClass
        self.detail = detail
        self.status = status
        self.retryAfter = retryAfter
        self.serverCode = serverCode
        self.request = request
    }

    /// Whether trying the same request again may succeed.
    public var isRetryable: Bool { errorClass.isRetryable }

    /// What the caller should do.
    public var disposition: ErrorClass.Disposition { errorClass.disposition }

    /// `GET /v1/posts/m9: not found: HTTP 404 Not Found (not_found): no post with id 'm9'; check
    /// the id; the thing may have been deleted`.
    public var description: String {
        var text = request.map { "\($0): " } ?? ""
        text += "\(errorClass): \(detail)"
        if let retryAfter { text += " (retry after \(retryAfter))" }
        return text + "; " + errorClass.advice
    }

    /// The network is unavailable.
    public static func offline(_ detail: String = "the network is unavailable") -> TransportError {
        TransportError(.offline, detail)
    }

    /// No answer arrived in time.
    public static func timeout(_ detail: String = "no response arrived in time") -> TransportError {
        TransportError(.timeout, detail)
    }

    /// The caller cancelled.
    public static func cancelled(_ detail: String = "the request was cancelled") -> TransportError {
        TransportError(.cancelled, detail)
    }

    /// A successful response whose body could not be read.
    public static func decoding(_ detail: String, status: Int? = nil, request: String? = nil)
        -> TransportError
    {
        TransportError(.decoding, detail, status: status, request: request)
    }
}
