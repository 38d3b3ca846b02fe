import Foundation
import MediaModel
import Synchronization
import Wire

/// The signed-in account's credentials, shared by every copy of an ``APIClient`` made with them:
/// the bearer token a request is sent with, and the renew token that replaces it.
///
/// Tokens expire (an hour, by default) and the person must not notice: a request made shortly
/// before the token's `expiresAt`, or one the server answers 401 `token_expired` or
/// `invalid_token`, renews the pair first (`POST /v1/sessions/renew`) and is sent again once.
/// Renewal is single-flight: however many requests find the token stale at once, one renewal is
/// made and the others wait for it, then use its token. The new pair goes to the change handler
/// (the app saves it) before any request uses it.
///
/// A renewal the server refuses (401 `invalid_renew_token`: revoked, expired, or reused) ends
/// the credentials: ``hasEnded`` becomes true, the handler hears ``Change/ended``, and every
/// authenticated request fails with a `TransportError` of class `unauthorized` and server code
/// `session_ended` without reaching the network again, until the person signs in again (new
/// credentials). Nothing loops.
///
/// ```swift
/// let credentials = Credentials(session: session) { change in
///     if case .renewed(let session) = change { try? store.save(session) }
/// }
/// let client = APIClient(transport: transport, credentials: credentials)
/// ```
public final class Credentials: Sendable {
    /// What happened to the credentials.
    public enum Change: Sendable, Equatable {
        /// The pair was renewed: save this session in place of the old one.
        case renewed(Session)
        /// The server refused the renew token: the person has to sign in again.
        case ended
    }

    /// How long before `expiresAt` a request renews the token first, at most (a tenth of the
    /// token's lifetime when that is shorter, so short-lived test tokens are still used).
    public static let renewalMargin: Duration = .seconds(60)

    private struct State {
        var token: String
        var expiresAt: Date?
        var renewToken: String?
        var renewExpiresAt: Date?
        var lifetime: TimeInterval?
        var renewal: Task<Result<String, TransportError>, Never>?
        var renewals = 0
        var ended = false
    }

    /// The handle of the account the credentials belong to, when known: it stays the same
    /// across renewals (a handle never changes), so caches can be keyed by it.
    public let handle: String?
    private let state: Mutex<State>
    private let onChange: @Sendable (Change) -> Void

    /// Credentials from a session: they renew themselves, and tell `onChange` about each new
    /// pair and about their end.
    ///
    /// - Parameters:
    ///   - session: the session a sign-in, an account creation or a saved file gave.
    ///   - issuedAt: when the session was received, on the client's clock, or nil when unknown
    ///     (a saved session): it bounds the renewal margin for short-lived tokens.
    ///   - onChange: called after each renewal (before any request uses the new token) and once
    ///     when the credentials end.
    public init(
        session: Session, issuedAt: Date? = nil, onChange: @escaping @Sendable (Change) -> Void = { _ in }
    ) {
        handle = session.user.handle
        state = Mutex(
            State(
                token: session.token, expiresAt: session.expiresAt, renewToken: session.renewToken,
                renewExpiresAt: session.renewExpiresAt,
                lifetime: issuedAt.map { session.expiresAt.timeIntervalSince($0) }))
        self.onChange = onChange
    }

    /// Credentials restored from a saved pair (the app's session file): they renew themselves
    /// like a session's.
    public init(
        handle: String, token: String, expiresAt: Date, renewToken: String, renewExpiresAt: Date,
        onChange: @escaping @Sendable (Change) -> Void = { _ in }
    ) {
        self.handle = handle
        state = Mutex(
            State(token: token, expiresAt: expiresAt, renewToken: renewToken, renewExpiresAt: renewExpiresAt))
        self.onChange = onChange
    }

    /// Credentials of a bare bearer token: they never renew (a 401 is the caller's to handle).
    /// For tests and tools that minted a token themselves.
    public init(token: String) {
        handle = nil
        state = Mutex(State(token: token))
        onChange = { _ in }
    }

    /// The bearer token requests are sent with now.
    public var token: String { state.withLock { $0.token } }

    /// When the current token expires, when known.
    public var expiresAt: Date? { state.withLock { $0.expiresAt } }

    /// Whether a renew token is held (bare-token credentials have none).
    public var canRenew: Bool { state.withLock { $0.renewToken != nil && !$0.ended } }

    /// How many times the pair was renewed.
    public var renewalCount: Int { state.withLock { $0.renewals } }

    /// Whether the server refused the renew token: the person has to sign in again.
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// The error every request fails with once the credentials have ended.
    public static func endedError(request: String?) -> TransportError {
        TransportError(
            .unauthorized, "the session ended and could not be renewed; sign in again", status: 401,
            serverCode: "session_ended", request: request)
    }

    /// The token to send a request with at `now`: the current one, renewed first when it expires
    /// within the margin. A renewal that fails for a reason other than the server's refusal
    /// (offline, say) leaves the current token to try.
    ///
    /// - Throws: ``endedError(request:)`` when the credentials have ended or the renewal was
    ///   refused.
    func tokenToSend(
        at now: Date, request: String?,
        renew: @escaping @Sendable (String) async throws(TransportError) -> Session
    ) async throws(TransportError) -> String {
        let (token, due) = state.withLock { state -> (String, Bool) in
            guard !state.ended else { return (state.token, false) }
            guard state.renewToken != nil, let expiresAt = state.expiresAt else {
                return (state.token, false)
            }
            let limit = Double(Self.renewalMargin.components.seconds)
            var margin = limit
            if let lifetime = state.lifetime { margin = min(margin, max(0, lifetime / 10)) }
            return (state.token, expiresAt.timeIntervalSince(now) <= margin)
        }
        if hasEnded { throw Self.endedError(request: request) }
        guard due else { return token }
        do {
            return try await self.renew(replacing: token, at: now, request: request, using: renew)
        } catch  where error.serverCode == "session_ended" {
            throw error
        } catch {
            return token
        }
    }

    /// Renews the pair unless `token` was already replaced (another request renewed it): one
    /// renewal at a time, the others wait for its outcome.
    ///
    /// - Returns: the token to send now.
    /// - Throws: ``endedError(request:)`` when the server refused the renew token (or had done so
    ///   before); the transport's error when the renewal could not be made (offline, timeout).
    func renew(
        replacing token: String, at now: Date, request: String?,
        using renew: @escaping @Sendable (String) async throws(TransportError) -> Session
    ) async throws(TransportError) -> String {
        enum Step {
            case use(String)
            case wait(Task<Result<String, TransportError>, Never>)
            case ended
            case cannot
        }
        let step = state.withLock { state -> Step in
            if state.ended { return .ended }
            if state.token != token { return .use(state.token) }
            if let running = state.renewal { return .wait(running) }
            guard let renewToken = state.renewToken else { return .cannot }
            let task = Task { await self.performRenewal(renewToken, at: now, using: renew) }
            state.renewal = task
            return .wait(task)
        }
        switch step {
        case .use(let current):
            return current
        case .ended:
            throw Self.endedError(request: request)
        case .cannot:
            throw TransportError(
                .unauthorized, "the bearer token was refused and there is no renew token; sign in again",
                status: 401, request: request)
        case .wait(let task):
            switch await task.value {
            case .success(let current): return current
            case .failure(let error):
                if error.serverCode == "session_ended" { throw Self.endedError(request: request) }
                throw error
            }
        }
    }

    private func performRenewal(
        _ renewToken: String, at now: Date,
        using renew: @Sendable (String) async throws(TransportError) -> Session
    ) async -> Result<String, TransportError> {
        let session: Session
        do {
            session = try await renew(renewToken)
        } catch {
            let refused = error.errorClass == .unauthorized
            state.withLock { state in
                state.renewal = nil
                if refused { state.ended = true }
            }
            if refused {
                onChange(.ended)
                return .failure(Self.endedError(request: error.request))
            }
            return .failure(error)
        }
        // The handler saves the pair before any request sends its token: a crash after the
        // server rotated never leaves the file holding only the revoked pair for long.
        onChange(.renewed(session))
        let token = state.withLock { state -> String in
            state.token = session.token
            state.expiresAt = session.expiresAt
            state.renewToken = session.renewToken
            state.renewExpiresAt = session.renewExpiresAt
            state.lifetime = session.expiresAt.timeIntervalSince(now)
            state.renewals += 1
            state.renewal = nil
            return session.token
        }
        return .success(token)
    }
}
