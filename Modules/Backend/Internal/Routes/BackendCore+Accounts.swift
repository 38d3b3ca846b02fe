import Foundation
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// The most accounts `GET /v1/accounts` lists.
    static let accountListLimit = 500

    /// The most accounts one search answers with, and how many it answers with by default.
    static let accountSearchLimit = (maximum: 50, default: 20)

    /// The longest search text, in characters.
    static let accountSearchLength = 100

    /// `GET /v1/accounts?q=&limit=`: the accounts with their counts. Without `q` (or with only
    /// spaces): every account, up to 500, by id, for onboarding. With `q`: up to `limit` (1 to
    /// 50, default 20) accounts matching it by MediaModel's `UserMatch` rule, handles that start
    /// with it first, then names with a word that starts with it, each by handle. No bearer token
    /// needed; a search with one (which must be valid) also says whether the viewer follows each.
    /// The list says whether the server is in demo mode (`"demo"`), and then marks the seed
    /// accounts `"demo": true` (they sign in with `DemoAccounts.password`).
    func accounts(_ route: RouteRequest) throws -> Response {
        let typed = route.request.queryValue("q") ?? ""
        guard typed.count <= Self.accountSearchLength else {
            throw APIError.invalidParameter(
                "q", "at most \(Self.accountSearchLength) characters, found \(typed.count)")
        }
        let query = UserMatch.query(typed)
        // A list without `q` is the onboarding list as it always was: `limit` is a search's.
        var limit = Self.accountListLimit
        if !query.isEmpty {
            limit = try route.limit(
                default: Self.accountSearchLimit.default, maximum: Self.accountSearchLimit.maximum)
        }
        return try read { db in
            var viewer: Int64?
            if !query.isEmpty, route.request.bearerToken != nil {
                viewer = try authenticate(route.request, db).id
            }
            var list = JSONWriter(capacity: 16 * 1024)
            list.beginObject()
            list.key("items")
            list.beginArray()
            if query.isEmpty {
                try writeAccounts("TRUE ORDER BY u.id LIMIT ?2", Int64(limit), viewer: viewer, to: &list, db)
            } else {
                let everyone = try db.query("SELECT id, handle, display_name FROM users") { row in
                    (id: try row.int64(0), handle: try row.string(1), name: try row.string(2))
                }
                for match in UserMatch.ranked(typed, everyone, handle: \.handle, displayName: \.name).prefix(
                    limit)
                {
                    try writeAccounts("u.id = ?2", match.id, viewer: viewer, to: &list, db)
                }
            }
            list.endArray()
            list.field("demo", demoMode)
            list.endObject()
            var builder = ResponseBuilder()
            return builder.response("accounts", list.bytes)
        }
    }

    /// Writes the accounts `condition` (SQL on `users u`, with `?2` bound to `value`) selects, each
    /// with its counts, and whether `viewer` follows it when there is a viewer.
    private func writeAccounts(
        _ condition: String, _ value: Int64, viewer: Int64?, to list: inout JSONWriter,
        _ db: borrowing Connection
    ) throws {
        try db.forEach(
            """
            SELECT u.json,
                   (SELECT COUNT(*) FROM follows WHERE follower = u.id),
                   (SELECT COUNT(*) FROM follows WHERE followee = u.id),
                   (SELECT COUNT(*) FROM posts WHERE author = u.id AND deleted = 0),
                   EXISTS(SELECT 1 FROM follows WHERE follower = ?1 AND followee = u.id),
                   u.demo
            FROM users u WHERE \(condition)
            """, viewer ?? 0, value
        ) { row in
            list.beginObject()
            if demoMode, try row.bool(5) { list.field("demo", true) }
            list.field("followerCount", try row.int(2))
            list.field("followingCount", try row.int(1))
            list.field("postCount", try row.int(3))
            if viewer != nil { list.field("viewerFollows", try row.bool(4)) }
            list.rawField("user", try row.bytes(0))
            list.endObject()
        }
    }

    /// `POST /v1/accounts` `{"handle": "zoe", "displayName": "Zoe", "bio": "...", "password": "..."}`:
    /// makes an account and answers 201 with the session object (the user, a bearer token and a
    /// renew token) and the `Idempotency-Key` echoed as `clientToken`. No bearer token needed.
    ///
    /// A retry with the same `Idempotency-Key` (after a lost response) answers 201 with a new
    /// session for the account that key made, but only when it names the same handle and the
    /// account's password: tokens are stored hashed, so the first ones cannot be sent again, and
    /// a key alone never hands out anyone's token. Otherwise it is a 409 `client_token_reused`.
    func createAccount(_ route: RouteRequest) async throws -> Response {
        let key = route.request.headers["Idempotency-Key"] == nil ? nil : try route.clientToken()
        let object = try route.bodyObject()
        let handle = try object.read { try $0.string("handle") }
        let displayName = try object.read { try $0.string("displayName") }
        let bio = try object.read { try $0.optionalString("bio") } ?? ""
        let password = try object.read { try $0.string("password") }
        guard (2...24).contains(handle.utf8.count), handle.utf8.allSatisfy({ Self.handleBytes.contains($0) })
        else {
            throw APIError.invalidBody(
                "handle: '\(handle.prefix(40))' must be 2 to 24 characters of a-z, 0-9 and _")
        }
        let trimmedName = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        try ProfileText.displayName.check(trimmedName)
        try ProfileText.bio.check(bio)
        try Self.checkNewPassword(password)
        if let key, let made = try accountMade(byKey: key) {
            return try await replayAccountCreation(
                route, key: key, made: made, handle: handle, password: password)
        }
        if try read({ db in try Self.handleTaken(handle, db) }) { throw Self.handleTaken(handle) }
        let passwordHash: String
        switch sessionPolicy.passwordCost {
        case .standard:
            passwordHash = try await KDFGate.shared.run(for: gateLine(for: route.request.clientAddress)) {
                try PasswordHash.make(password)
            }
        case .minimal: passwordHash = try PasswordHash.make(password, cost: .demo)
        }
        let now = nowMilliseconds
        let outcome = try database.transaction { db -> (IssuedSession, [UInt8])? in
            if let key,
                try db.queryFirst("SELECT 1 FROM account_keys WHERE key = ?", key, map: { _ in true }) != nil
            {
                return nil
            }
            if try Self.handleTaken(handle, db) { throw Self.handleTaken(handle) }
            let id = try db.queryFirst("SELECT COALESCE(MAX(id), 0) + 1 FROM users") { try $0.int64(0) } ?? 1
            let account = Account(id: id, handle: handle, displayName: trimmedName, bio: bio)
            let json = Array(account.user.json.serialized())
            try db.execute(
                """
                INSERT INTO users (id, handle, display_name, bio, password_hash, demo, created_at, json)
                VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                """, id, handle, trimmedName, bio, passwordHash, now, json)
            if let key {
                try db.execute(
                    #"INSERT INTO account_keys (key, "user", created_at) VALUES (?, ?, ?)"#, key, id, now)
            }
            return (try insertSession(user: id, family: nil, db), json)
        }
        guard let (issued, json) = outcome else { throw Self.keyReused(key ?? "") }
        var builder = ResponseBuilder()
        return builder.response(
            "account", Self.sessionObject(issued, userJSON: json, clientToken: key), status: 201)
    }

    /// The account an account-creation key made, with what a replay is checked against.
    private func accountMade(byKey key: String) throws -> (
        id: Int64, handle: String, hash: String?, json: [UInt8]
    )? {
        try read { db in
            try db.queryFirst(
                """
                SELECT u.id, u.handle, u.password_hash, u.json
                FROM account_keys k JOIN users u ON u.id = k.user WHERE k.key = ?
                """, key,
                map: { row in
                    (
                        id: try row.int64(0), handle: try row.string(1),
                        hash: try row.isNull(2) ? nil : try row.string(2), json: try row.bytes(3)
                    )
                })
        }
    }

    /// A replayed account-creation key: a new session when the body names the account the key
    /// made and its password verifies (a wrong password counts as a failed sign-in); else 409.
    private func replayAccountCreation(
        _ route: RouteRequest, key: String, made: (id: Int64, handle: String, hash: String?, json: [UInt8]),
        handle: String, password: String
    ) async throws -> Response {
        guard made.handle == handle else { throw Self.keyReused(key) }
        let address = route.request.clientAddress
        guard try await checkPassword(password, account: made.id, hash: made.hash, address: address) else {
            throw Self.keyReused(key)
        }
        let issued = try database.transaction { db in try insertSession(user: made.id, family: nil, db) }
        var builder = ResponseBuilder()
        var response = builder.response(
            "account", Self.sessionObject(issued, userJSON: made.json, clientToken: key), status: 201)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    }

    private static func handleTaken(_ handle: String, _ db: borrowing Connection) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM users WHERE handle = ?", handle, map: { _ in true }) != nil
    }

    private static func handleTaken(_ handle: String) -> APIError {
        APIError.conflict("handle '\(handle)' is taken; choose another", code: "handle_taken")
    }

    private static func keyReused(_ key: String) -> APIError {
        APIError.conflict(
            "client token '\(key.prefix(40))' was already used to create another account, or with another "
                + "password; make a new token for each new account", code: "client_token_reused")
    }

    /// The bytes a handle may hold.
    static let handleBytes: Set<UInt8> = Set(Array("abcdefghijklmnopqrstuvwxyz0123456789_".utf8))
}
