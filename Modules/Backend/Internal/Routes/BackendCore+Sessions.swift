import Foundation
import MediaModel
import Storage
import Wire

/// A session just handed out: the tokens in plain (the only time they exist outside the client)
/// and when they expire.
struct IssuedSession {
    var id: Int64
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
        guard try await checkPassword(password, account: found.account.id, hash: found.hash, address: address)
        else {
            throw APIError.unauthorized(
                found.hash == nil
                    ? "@\(found.account.handle) was made before accounts had passwords and cannot sign in; "
                        + "create a new account"
                    : "wrong password for @\(found.account.handle); check it and try again",
                code: "invalid_credentials")
        }
        let issued = try database.transaction { db in
            try insertSession(user: found.account.id, family: nil, db)
        }
        var builder = ResponseBuilder()
        return builder.response("session", Self.sessionObject(issued, userJSON: found.json))
    }

    /// `POST /v1/sessions/renew` `{"renewToken": "ren_..."}`: 200 with a new session object for
    /// the same account; the old pair stops working (rotation). 401 `invalid_renew_token` for an
    /// unknown, revoked or expired renew token; presenting one that was already exchanged revokes
    /// every session renewed from the same sign-in (someone else may hold a copy), except for a
    /// retry (see `renewalRetryWindow`).
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
                    SELECT s.id, s.user, s.family, s.renew_expires_at, s.revoked_reason, u.demo, u.json, u.handle,
                           s.revoked_at, s.rotated_to, s.retry_salt
                    FROM sessions s JOIN users u ON u.id = s.user WHERE s.renew_hash = ?
                    """, SecretToken.hash(renewToken),
                    map: { row in
                        (
                            id: try row.int64(0), user: try row.int64(1), family: try row.int64(2),
                            expires: try row.int64(3), revoked: try row.isNull(4) ? nil : try row.string(4),
                            demo: try row.bool(5), json: try row.bytes(6), handle: try row.string(7),
                            revokedAt: try row.isNull(8) ? nil : try row.int64(8),
                            rotatedTo: try row.isNull(9) ? nil : try row.int64(9),
                            salt: try row.isNull(10) ? nil : try row.string(10)
                        )
                    })
            else { return .refused("is unknown") }
            if let revoked = found.revoked {
                guard revoked == Self.revokedByRotation else { return .refused("was revoked") }
                if let revokedAt = found.revokedAt, now - revokedAt < Self.renewalRetryWindow,
                    let successor = found.rotatedTo, let salt = found.salt,
                    let issued = try retriedRenewal(of: renewToken, successor: successor, salt: salt, db)
                {
                    if found.demo && !demoMode { return .demoDisabled(found.handle) }
                    return .renewed(issued, found.json)
                }
                try db.execute(
                    "UPDATE sessions SET revoked_at = ?, revoked_reason = 'renew_token_reused' WHERE family = ? AND revoked_at IS NULL",
                    now, found.family)
                try db.execute("UPDATE sessions SET retry_salt = NULL WHERE family = ?", found.family)
                return .refused(
                    "was already exchanged for a new one; every session from that sign-in is now revoked")
            }
            guard found.expires > now else { return .refused("expired") }
            if found.demo && !demoMode { return .demoDisabled(found.handle) }
            let salt = SecretToken.make(prefix: "")
            let issued = try insertSession(
                user: found.user, family: found.family, db, derivedFrom: (renewToken, salt))
            try db.execute(
                "UPDATE sessions SET revoked_at = ?, revoked_reason = ?, rotated_to = ?, retry_salt = ? WHERE id = ?",
                now, Self.revokedByRotation, issued.id, salt, found.id)
            return .renewed(issued, found.json)
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

    /// How long after a renewal the same renew token may be presented again and get the same
    /// answer (milliseconds): a retry after a lost answer, or several requests that renewed at
    /// once. After it, or once the new pair's renew token was used, the old one is a reuse.
    static let renewalRetryWindow: Int64 = 30_000

    /// The pair a renewal handed out, derived again from the renew token it was exchanged for and
    /// the salt kept for the window, when that pair is still live (nil otherwise: its renew token
    /// was used, or it was revoked).
    private func retriedRenewal(
        of renewToken: String, successor: Int64, salt: String, _ db: borrowing Connection
    )
        throws -> IssuedSession?
    {
        let token = SecretToken.derive(prefix: SecretToken.bearerPrefix, from: renewToken, salt: salt)
        let renew = SecretToken.derive(prefix: SecretToken.renewPrefix, from: renewToken, salt: salt)
        return try db.queryFirst(
            """
            SELECT expires_at, renew_expires_at FROM sessions
            WHERE id = ? AND revoked_at IS NULL AND token_hash = ? AND renew_hash = ?
            """, successor, SecretToken.hash(token), SecretToken.hash(renew),
            map: { row in
                IssuedSession(
                    id: successor, token: token, expiresAt: try row.int64(0), renewToken: renew,
                    renewExpiresAt: try row.int64(1))
            })
    }

    /// `DELETE /v1/sessions/current`: signs out. 204; the bearer token and its renew token stop
    /// working. A token past its expiry may still sign out.
    func deleteSession(_ route: RouteRequest) throws -> Response {
        let now = nowMilliseconds
        try database.transaction { db in
            let session = try authenticatedSession(route.request, db, acceptExpired: true).session
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
    /// hashed, and returns them in plain. The tokens are random, or for a renewal derived from
    /// the renew token it exchanged and a random salt (`derivedFrom`), so that a retry within the
    /// window can be answered with the same pair. Sessions whose renew token has expired are
    /// removed, and salts older than the retry window are forgotten.
    func insertSession(
        user: Int64, family: Int64?, _ db: borrowing Connection, lifetime: Int64? = nil,
        derivedFrom source: (renewToken: String, salt: String)? = nil
    ) throws -> IssuedSession {
        let now = nowMilliseconds
        let tokenLifetime = lifetime ?? sessionPolicy.tokenMilliseconds
        let renewLifetime = lifetime ?? sessionPolicy.renewMilliseconds
        let (expiresAt, tokenOverflow) = now.addingReportingOverflow(tokenLifetime)
        let (renewExpiresAt, renewOverflow) = now.addingReportingOverflow(renewLifetime)
        try db.execute("DELETE FROM sessions WHERE renew_expires_at <= ?", now)
        try db.execute(
            "UPDATE sessions SET retry_salt = NULL WHERE retry_salt IS NOT NULL AND revoked_at <= ?",
            now - Self.renewalRetryWindow)
        let id = try db.queryFirst("SELECT COALESCE(MAX(id), 0) + 1 FROM sessions") { try $0.int64(0) } ?? 1
        func token(_ prefix: String) -> String {
            guard let source else { return SecretToken.make(prefix: prefix) }
            return SecretToken.derive(prefix: prefix, from: source.renewToken, salt: source.salt)
        }
        let issued = IssuedSession(
            id: id, token: token(SecretToken.bearerPrefix), expiresAt: tokenOverflow ? Int64.max : expiresAt,
            renewToken: token(SecretToken.renewPrefix),
            renewExpiresAt: renewOverflow ? Int64.max : renewExpiresAt)
        try db.execute(
            """
            INSERT INTO sessions (id, "user", family, token_hash, renew_hash, created_at, expires_at, renew_expires_at)
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

    /// Whether `password` is `account`'s (whose hash is `hash`), as one sign-in attempt from
    /// `address`: it waits for the account's turn (one check at a time per account), is counted
    /// against the limits *before* it is hashed, and is given back when it was right (then the
    /// account's count is cleared) or could not be checked. 429 `too_many_attempts` when a limit
    /// is reached, or when too many sign-ins for the account are already waiting.
    func checkPassword(_ password: String, account: Int64, hash: String?, address: String?) async throws
        -> Bool
    {
        guard await signInLimiter.takeTurn(account: account) else {
            throw APIError(
                status: 429, code: "too_many_attempts",
                message: "too many sign-ins for this account are waiting to be checked (at most "
                    + "\(signInLimiter.maximumWaitingPerAccount)); try again in 1 s",
                headers: ["Retry-After": "1"])
        }
        do {
            let matches = try await checkPasswordInTurn(
                password, account: account, hash: hash, address: address)
            signInLimiter.endTurn(account: account)
            return matches
        } catch {
            signInLimiter.endTurn(account: account)
            throw error
        }
    }

    private func checkPasswordInTurn(_ password: String, account: Int64, hash: String?, address: String?)
        async throws -> Bool
    {
        let reservation: SignInLimiter.Reservation
        switch try signInLimiter.reserve(account: account, address: address, now: nowMilliseconds) {
        case .success(let reserved): reservation = reserved
        case .failure(let wait): throw tooManyAttempts(account: account, seconds: wait.seconds)
        }
        let matches: Bool
        do {
            signInLimiter.countCheck()
            matches = try await verify(password, against: hash, address: address)
        } catch {
            try? signInLimiter.giveBack(reservation)
            throw error
        }
        if matches {
            try signInLimiter.giveBack(reservation)
            try signInLimiter.recordSuccess(account: account)
        } else {
            try signInLimiter.recordFailure(reservation, now: nowMilliseconds)
        }
        return matches
    }

    /// Whether `password` matches `stored`, hashed through the process's `KDFGate` (a hash at
    /// the demo cost, a megabyte for a millisecond, runs at once). An account without a password
    /// hash matches nothing (a hash is still computed, so the answer takes as long).
    func verify(_ password: String, against stored: String?, address: String?) async throws -> Bool {
        guard let stored else {
            _ = try await KDFGate.shared.run(for: gateLine(for: address)) {
                PasswordHash.verify(password, against: try DemoPassword.hash.get())
            }
            return false
        }
        if PasswordHash.isCheap(stored) { return PasswordHash.verify(password, against: stored) }
        return try await KDFGate.shared.run(for: gateLine(for: address)) {
            PasswordHash.verify(password, against: stored)
        }
    }

    /// 429 `too_many_attempts` when failed sign-ins for the account or from the address reached
    /// their limit.
    func checkSignInLimit(account: Int64?, address: String?) throws {
        guard
            let seconds = try signInLimiter.retryAfter(
                account: account, address: address, now: nowMilliseconds)
        else { return }
        throw tooManyAttempts(account: account, seconds: seconds)
    }

    /// 429 `too_many_attempts`, to retry after `seconds`.
    private func tooManyAttempts(account: Int64?, seconds: Int64) -> APIError {
        let limits = signInLimiter.limits
        return APIError(
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
