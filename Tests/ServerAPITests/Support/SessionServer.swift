import Foundation
import MediaModel
import ServerAPI
import Synchronization
import Wire

/// A transport playing the server's session rules on a manual clock, so the client's renewal
/// can be tested without the backend: tokens expire, renewal rotates the pair (the old one is
/// refused with `invalid_token`), a reused renew token is refused with `invalid_renew_token`,
/// and `GET /v1/accounts` needs a valid token. Every request is recorded.
final class SessionServer: Transport {
    struct State {
        var tokens: [String: Date] = [:]
        var renewTokens: Set<String> = []
        var issued = 0
        var renewals = 0
        var signOuts = 0
        var log: [String] = []
        var refuseRenewals = false
    }

    let clock: ManualClock
    let lifetime: TimeInterval
    let user = User(id: "u1", handle: "ada", displayName: "Ada")
    /// How long the renew route takes (real time), so concurrent requests overlap it.
    let renewDelay: Duration
    let state = Mutex(State())

    init(clock: ManualClock = ManualClock(), lifetime: TimeInterval = 3600, renewDelay: Duration = .zero) {
        self.clock = clock
        self.lifetime = lifetime
        self.renewDelay = renewDelay
    }

    /// Issues a pair, as a sign-in would.
    func issue() -> Session {
        state.withLock { state in
            state.issued += 1
            let token = "tok_\(state.issued)"
            let renew = "ren_\(state.issued)"
            state.tokens[token] = clock.now.addingTimeInterval(lifetime)
            state.renewTokens.insert(renew)
            return Session(
                user: user, token: token, expiresAt: clock.now.addingTimeInterval(lifetime),
                renewToken: renew,
                renewExpiresAt: clock.now.addingTimeInterval(30 * 86400))
        }
    }

    var renewals: Int { state.withLock { $0.renewals } }
    var log: [String] { state.withLock { $0.log } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        let entry = "\(request.method) \(request.path) \(request.bearerToken ?? "-")"
        state.withLock { $0.log.append(entry) }
        switch (request.method, request.path) {
        case (.post, "/v1/sessions/renew"):
            if renewDelay > .zero { try? await Task.sleep(for: renewDelay) }
            let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            let renewToken = body?["renewToken"] as? String ?? ""
            let valid = state.withLock { state in
                guard !state.refuseRenewals, state.renewTokens.remove(renewToken) != nil else { return false }
                // Rotation: the old pair stops working.
                let number = renewToken.dropFirst("ren_".count)
                state.tokens["tok_\(number)"] = nil
                state.renewals += 1
                return true
            }
            guard valid else {
                return .error(
                    401, code: "invalid_renew_token", message: "the renew token is not valid; sign in again")
            }
            let session = issue()
            return .json(200, WireFormat.encode(WireEnvelope(session)))
        case (.delete, "/v1/sessions/current"):
            state.withLock { state in
                state.signOuts += 1
                if let token = request.bearerToken { state.tokens[token] = nil }
            }
            return Response(status: 204)
        case (.get, "/v1/accounts"):
            let expiry = state.withLock { state in request.bearerToken.flatMap { state.tokens[$0] } }
            guard let expiry else {
                return .error(401, code: "invalid_token", message: "unknown or revoked token; sign in again")
            }
            guard expiry > clock.now else {
                return .error(401, code: "token_expired", message: "the token expired; renew it")
            }
            return .json(200, WireFormat.encode(WireEnvelope(AccountList(accounts: []))))
        default:
            return .error(404, code: "not_found", message: "no route")
        }
    }
}
