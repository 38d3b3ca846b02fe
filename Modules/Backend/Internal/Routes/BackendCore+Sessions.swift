import Foundation
import MediaModel
import Storage
import Wire

/// A session just handed out: the tokens in plain (the only time they exist outside the client)
/// and when they expire.
struct IssuedSession {
    var token: String
    var expiresAt: Int64
    var renewToken: String
    var renewExpiresAt: Int64
}

extension BackendCore {
    /// The longest password, in UTF-8 bytes, and the shortest and longest in characters.
    static let passwordBytes = 1024
    static let passwordCharacters = 8...200

    /// `POST /v1/sessions` `{"handle": "ada", "password": "..."}`: signs in and answers 200 with
    /// the session object (the user, a bearer token and a renew token with their expiries).
    /// 404 `not_found` for no such handle, 403 `demo_disabled` for a seed account when the
    /// server is not in demo mode, 401 `invalid_credentials` for a wrong password, 429
    /// `too_many_attempts` (with `Retry-After`) after too many wrong ones for the account or the
    /// client's address.
    func createSession(_ route: RouteRequest) async throws -> Response {
        let object = try route.bodyObject()
        let handle = try object.read { try $0.string("handle") }
        let password = try object.read { try $0.string("password") }
        guard password.utf8.count <= Self.passwordBytes else {
            throw APIError.invalidBody("password: over the limit of \(Self.passwordBytes) UTF-8 bytes")
        }
        let address = route.request.clientAddress
        try checkSignInLimit(account: nil, address: address)
        let found = try read { db in
            try db.queryFirst(
                "SELECT id, handle, display_name, bio, password_hash, demo, json FROM users WHERE handle = ?",
                handle,
                map: { row in
                    (
                        account: try Account(row), hash: try row.isNull(4) ? nil : try row.string(4),
                        demo: try row.bool(5), json: try row.bytes(6)
                    )
                })
        }
        guard let found else {
            throw APIError.notFound(
                "no account with handle '\(handle.prefix(40))'; create it with POST /v1/accounts")
        }
        if found.demo && !demoMode { throw Self.demoDisabled(handle) }
        try checkSignInLimit(account: found.account.id, address: address)
        guard try await verify(password, against: found.hash) else {
            signInLimiter.recordFailure(account: found.account.id, address: address, now: nowMilliseconds)
            throw APIError.unauthorized(
                found.hash == nil
                    ? "@\(found.account.handle) was made before accounts had passwords and cannot sign in; "
                        + "create a new account"
                    : "wrong password for @\(found.account.handle); check it and try again",
                code: "invalid_credentials")
        }
        signInLimiter.recordSuccess(account: found.account.id)
        let issued = try database.transaction { db in
            try insertSession(user: found.account.id, family: nil, db)
        }
        var builder = ResponseBuilder()
        return builder.response("session", Self.sessionObject(issued, userJSON: found.json))
    }

    /// `POST /v1/sessions/renew` `{"renewToken": "ren_..."}`: 200 with a new session object for
    /// the same account; the old pair stops working (rotation). 401 `invalid_renew_token` for an
    /// unknown, revoked or expired renew token; presenting one that was already exchanged revokes
    /// every session renewed from the same sign-in (someone else may hold a copy).
    func renewSession(_ route: RouteRequest) throws -> Response {
        let object = try route.bodyObject()
        let renewToken = try object.read { try $0.string("renewToken") }
        enum Outcome {
            case renewed(IssuedSession, [UInt8])
            case refused(String)
            case demoDisabled(String)
        }
        let now = nowMilliseconds
        let outcome = try database.transaction { db -> Outcome in
            guard
                let found = try db.queryFirst(
                    """
                    SELECT s.id, s.user, s.family, s.renew_expires_at, s.revoked_reason, u.demo, u.json, u.handle
                    FROM sessions s JOIN users u ON u.id = s.user WHERE s.renew_hash = ?
                    """, SecretToken.hash(renewToken),
                    map: { row in
                        (
                            id: try row.int64(0), user: try row.int64(1), family: try row.int64(2),
                            expires: try row.int64(3), revoked: try row.isNull(4) ? nil : try row.string(4),
                            demo: try row.bool(5), json: try row.bytes(6), handle: try row.string(7)
                        )
                    })
            else { return .refused("is unknown") }
            if let revoked = found.revoked {
                guard revoked == Self.revokedByRotation else { return .refused("was revoked") }
                try db.execute(
                    "UPDATE sessions SET revoked_at = ?, revoked_reason = 'renew_token_reused' WHERE family = ? AND revoked_at IS NULL",
                    now, found.family)
                return .refused(
                    "was already exchanged for a new one; every session from that sign-in is now revoked")
            }
            guard found.expires > now else { return .refused("expired") }
            if found.demo && !demoMode { return .demoDisabled(found.handle) }
            try db.execute(
                "UPDATE sessions SET revoked_at = ?, revoked_reason = ? WHERE id = ?", now,
                Self.revokedByRotation, found.id)
            return .renewed(try insertSession(user: found.user, family: found.family, db), found.json)
        }
        switch outcome {
        case .renewed(let issued, let json):
            var builder = ResponseBuilder()
            return builder.response("session", Self.sessionObject(issued, userJSON: json))
        case .refused(let reason):
            throw APIError.unauthorized(
                "renew token '\(renewToken.prefix(8))…' \(reason); sign in again with POST /v1/sessions",
                code: "invalid_renew_token")
        case .demoDisabled(let handle):
            throw Self.demoDisabled(handle)
        }
    }

    /// `DELETE /v1/sessions/current`: signs out. 204; the bearer token and its renew token stop
    /// working. A token past its expiry may still sign out.
    func deleteSession(_ route: RouteRequest) throws -> Response {
        let now = nowMilliseconds
        try database.transaction { db in
            let (session, _) = try authenticatedSession(route.request, db, acceptExpired: true)
            try db.execute(
                """
                UPDATE sessions SET revoked_at = ?, revoked_reason = 'signed_out'
                WHERE family = (SELECT family FROM sessions WHERE id = ?) AND revoked_at IS NULL
                """, now, session)
        }
        return Response(status: 204)
    }

    /// Why a session row was revoked when its renew token was exchanged.
    static let revokedByRotation = "rotated"

    /// Stores a new session for `user` (in renewal chain `family`, or a new chain), its tokens
    /// hashed, and returns them in plain. Sessions whose renew token has expired are removed.
    func insertSession(
        user: Int64, family: Int64?, _ db: borrowing Connection, lifetime: Int64? = nil
    ) throws -> IssuedSession {
        let now = nowMilliseconds
        let tokenLifetime = lifetime ?? sessionPolicy.tokenMilliseconds
        let renewLifetime = lifetime ?? sessionPolicy.renewMilliseconds
        let (expiresAt, tokenOverflow) = now.addingReportingOverflow(tokenLifetime)
        let (renewExpiresAt, renewOverflow) = now.addingReportingOverflow(renewLifetime)
        let issued = IssuedSession(
            token: SecretToken.make(prefix: SecretToken.bearerPrefix),
            expiresAt: tokenOverflow ? Int64.max : expiresAt,
            renewToken: SecretToken.make(prefix: SecretToken.renewPrefix),
            renewExpiresAt: renewOverflow ? Int64.max : renewExpiresAt)
        try db.execute("DELETE FROM sessions WHERE renew_expires_at <= ?", now)
        let id = try db.queryFirst("SELECT COALESCE(MAX(id), 0) + 1 FROM sessions") { try $0.int64(0) } ?? 1
        try db.execute(
            """
            INSERT INTO sessions (id, user, family, token_hash, renew_hash, created_at, expires_at, renew_expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, id, user, family ?? id, SecretToken.hash(issued.token), SecretToken.hash(issued.renewToken),
            now, issued.expiresAt, issued.renewExpiresAt)
        return issued
    }

    /// The session object: `{"expiresAt", "renewExpiresAt", "renewToken", "token", "user"}`,
    /// with `clientToken` first when given (account creation echoes it).
    static func sessionObject(_ issued: IssuedSession, userJSON: [UInt8], clientToken: String? = nil)
        -> [UInt8]
    {
        var payload = JSONWriter()
        payload.beginObject()
        if let clientToken { payload.field("clientToken", clientToken) }
        payload.field("expiresAt", issued.expiresAt)
        payload.field("renewExpiresAt", issued.renewExpiresAt)
        payload.field("renewToken", issued.renewToken)
        payload.field("token", issued.token)
        payload.rawField("user", userJSON)
        payload.endObject()
        return payload.bytes
    }

    /// Whether `password` matches `stored`, hashed through the process's `KDFGate` (a hash at
    /// the demo cost, a megabyte for a millisecond, runs at once). An account without a password
    /// hash matches nothing (a hash is still computed, so the answer takes as long).
    func verify(_ password: String, against stored: String?) async throws -> Bool {
        guard let stored else {
            _ = try await KDFGate.shared.run {
                PasswordHash.verify(password, against: try DemoPassword.hash.get())
            }
            return false
        }
        if PasswordHash.isCheap(stored) { return PasswordHash.verify(password, against: stored) }
        return try await KDFGate.shared.run { PasswordHash.verify(password, against: stored) }
    }

    /// 429 `too_many_attempts` when failed sign-ins for the account or from the address reached
    /// their limit.
    func checkSignInLimit(account: Int64?, address: String?) throws {
        guard let seconds = signInLimiter.retryAfter(account: account, address: address, now: nowMilliseconds)
        else { return }
        let limits = signInLimiter.limits
        throw APIError(
            status: 429, code: "too_many_attempts",
            message: "too many failed sign-ins "
                + (account == nil ? "from this address" : "for this account or from this address")
                + " (at most \(limits.perAccount) per account and \(limits.perAddress) per address in "
                + "\(limits.window / 60_000) minutes); try again in \(seconds) s",
            headers: ["Retry-After": String(seconds)])
    }

    static func demoDisabled(_ handle: String) -> APIError {
        APIError.forbidden(
            "@\(handle.prefix(40)) is a demo account, and this server is not in demo mode; start it with "
                + "--demo to use the demo data, or create an account of your own", code: "demo_disabled")
    }

    /// A password's rule for a new account: 8 to 200 characters, at most 1024 UTF-8 bytes.
    static func checkNewPassword(_ password: String) throws {
        guard password.utf8.count <= passwordBytes, passwordCharacters.contains(password.count) else {
            throw APIError.invalidBody(
                "password: must be \(passwordCharacters.lowerBound) to \(passwordCharacters.upperBound) "
                    + "characters (at most \(passwordBytes) UTF-8 bytes), found \(password.count) characters")
        }
    }
}
