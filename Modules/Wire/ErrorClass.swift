/// What kind of failure a request met, shared by every transport, so callers can tell what to
/// do next without knowing how the request travelled.
///
/// | class | cause | disposition |
/// | --- | --- | --- |
/// | `offline` | no network | retry |
/// | `timeout` | no answer in time (the server may have applied it) | retry |
/// | `cancelled` | the caller cancelled | cancelled |
/// | `badRequest` | 400 | permanent |
/// | `unauthorized` | 401 | reauthenticate |
/// | `forbidden` | 403 | permanent |
/// | `notFound` | 404 | permanent |
/// | `requestTimeout` | 408 | retry |
/// | `conflict` | 409 | permanent |
/// | `rateLimited` | 429 (honor `Retry-After`) | retry |
/// | `clientError` | any other 4xx | permanent |
/// | `serverError` | 5xx | retry |
/// | `decoding` | a 2xx body that could not be read | permanent |
/// | `unexpectedStatus` | 1xx or 3xx | permanent |
public enum ErrorClass: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The network is unavailable; nothing was sent.
    case offline
    /// No answer arrived in time; the server may or may not have applied the request.
    case timeout
    /// The caller cancelled the request.
    case cancelled
    /// 400: the request is malformed.
    case badRequest
    /// 401: no credentials, or they are not valid.
    case unauthorized
    /// 403: the credentials do not allow this.
    case forbidden
    /// 404: the thing does not exist.
    case notFound
    /// 408: the server gave up waiting for the request.
    case requestTimeout
    /// 409: the request conflicts with the current state (e.g. a reused client token).
    case conflict
    /// 429: too many requests; wait for `Retry-After`.
    case rateLimited
    /// Another 4xx status.
    case clientError
    /// A 5xx status.
    case serverError
    /// A successful response whose body could not be decoded.
    case decoding
    /// A 1xx or 3xx status, which no endpoint sends.
    case unexpectedStatus

    /// What a caller should do about a failure.
    public enum Disposition: String, Hashable, Sendable {
        /// Try again later (after `Retry-After` when given).
        case retry
        /// Sign in again, then try again.
        case reauthenticate
        /// Trying again will fail the same way: report it and roll back.
        case permanent
        /// The caller gave up; do nothing.
        case cancelled
    }

    /// The class of a response status, or nil for a 2xx.
    public init?(status: Int) {
        switch status {
        case 200..<300: return nil
        case 400: self = .badRequest
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 404: self = .notFound
        case 408: self = .requestTimeout
        case 409: self = .conflict
        case 429: self = .rateLimited
        case 400..<500: self = .clientError
        case 500..<600: self = .serverError
        default: self = .unexpectedStatus
        }
    }

    /// What a caller should do about this class of failure.
    public var disposition: Disposition {
        switch self {
        case .offline, .timeout, .requestTimeout, .rateLimited, .serverError: .retry
        case .unauthorized: .reauthenticate
        case .cancelled: .cancelled
        case .badRequest, .forbidden, .notFound, .conflict, .clientError, .decoding, .unexpectedStatus:
            .permanent
        }
    }

    /// Whether trying the same request again may succeed (offline, timeout, 408, 429, 5xx).
    public var isRetryable: Bool { disposition == .retry }

    /// A short phrase for messages (`"not found"`).
    public var description: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timed out"
        case .cancelled: "cancelled"
        case .badRequest: "bad request"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not found"
        case .requestTimeout: "request timeout"
        case .conflict: "conflict"
        case .rateLimited: "rate limited"
        case .clientError: "client error"
        case .serverError: "server error"
        case .decoding: "undecodable response"
        case .unexpectedStatus: "unexpected status"
        }
    }

    /// What to do about it, for messages.
    var advice: String {
        switch self {
        case .offline: "it will be retried when the network is back"
        case .timeout: "it will be retried with the same client token, so it is applied at most once"
        case .cancelled: "nothing to do"
        case .badRequest, .clientError: "fix the request; retrying it unchanged fails the same way"
        case .unauthorized: "sign in again to get a valid bearer token"
        case .forbidden: "only the owner may do this"
        case .notFound: "check the id; the thing may have been deleted"
        case .requestTimeout, .serverError: "it will be retried with backoff"
        case .conflict: "use a new client token for a new request"
        case .rateLimited: "it will be retried after the server's Retry-After delay"
        case .decoding: "the server sent a document this build cannot read; update the app"
        case .unexpectedStatus: "the server sent a status no endpoint uses; check the server address"
        }
    }
}
