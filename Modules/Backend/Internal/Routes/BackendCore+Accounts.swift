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
                try writeAccounts("1 ORDER BY u.id LIMIT ?2", Int64(limit), viewer: viewer, to: &list, db)
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
                   EXISTS(SELECT 1 FROM follows WHERE follower = ?1 AND followee = u.id)
            FROM users u WHERE \(condition)
            """, viewer ?? 0, value
        ) { row in
            list.beginObject()
            list.field("followerCount", try row.int(2))
            list.field("followingCount", try row.int(1))
            list.field("postCount", try row.int(3))
            if viewer != nil { list.field("viewerFollows", try row.bool(4)) }
            list.rawField("user", try row.bytes(0))
            list.endObject()
        }
    }

    /// `POST /v1/accounts` `{"handle": "zoe", "displayName": "Zoe", "bio": "..."}`: makes an
    /// account and answers 201 with it and its bearer token. No bearer token needed; an
    /// `Idempotency-Key` makes a retry return the same account.
    func createAccount(_ route: RouteRequest) throws -> Response {
        try mutate(route, anonymous: true) { db, _, token, _ in
            let object = try route.bodyObject()
            let handle = try object.read { try $0.string("handle") }
            let displayName = try object.read { try $0.string("displayName") }
            let bio = try object.read { try $0.optionalString("bio") } ?? ""
            guard (2...24).contains(handle.utf8.count),
                handle.utf8.allSatisfy({ Self.handleBytes.contains($0) })
            else {
                throw APIError.invalidBody(
                    "handle: '\(handle.prefix(40))' must be 2 to 24 characters of a-z, 0-9 and _")
            }
            let trimmedName = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...50).contains(trimmedName.count) else {
                throw APIError.invalidBody(
                    "displayName: must be 1 to 50 characters, found \(trimmedName.count)")
            }
            guard bio.count <= 300 else {
                throw APIError.invalidBody("bio: \(bio.count) characters is over the limit of 300")
            }
            if try db.queryFirst("SELECT 1 FROM users WHERE handle = ?", handle, map: { _ in true }) != nil {
                throw APIError.conflict("handle '\(handle)' is taken; choose another", code: "handle_taken")
            }
            let id = try db.queryFirst("SELECT COALESCE(MAX(id), 0) + 1 FROM users") { try $0.int64(0) } ?? 1
            let account = Account(id: id, handle: handle, displayName: trimmedName, bio: bio)
            let bearer = Self.makeToken()
            try db.execute(
                "INSERT INTO users (id, handle, display_name, bio, token, created_at, json) VALUES (?, ?, ?, ?, ?, ?, ?)",
                id, handle, trimmedName, bio, bearer, nowMilliseconds, account.user.json.serialized())
            var payload = JSONWriter()
            payload.beginObject()
            if let token { payload.field("clientToken", token) }
            payload.field("token", bearer)
            payload.rawField("user", account.user.json.serialized())
            payload.endObject()
            var builder = ResponseBuilder()
            return builder.response("account", payload.bytes, status: 201)
        }
    }

    /// `POST /v1/sessions` `{"handle": "ada"}`: signs in as an existing account and answers 200
    /// with it and its bearer token. This is a demo backend for two apps on one machine: it trusts
    /// whoever can reach it (loopback by default), so there is no password.
    func createSession(_ route: RouteRequest) throws -> Response {
        let object = try route.bodyObject()
        let handle = try object.read { try $0.string("handle") }
        return try database.withConnection { db in
            let found = try db.queryFirst(
                "SELECT id, handle, display_name, bio, token, json FROM users WHERE handle = ?", handle
            ) { row in (try Account(row), try row.string(4), try row.bytes(5)) }
            guard let (_, token, json) = found else {
                throw APIError.notFound(
                    "no account with handle '\(handle.prefix(40))'; create it with POST /v1/accounts")
            }
            var payload = JSONWriter()
            payload.beginObject()
            payload.field("token", token)
            payload.rawField("user", json)
            payload.endObject()
            var builder = ResponseBuilder()
            return builder.response("session", payload.bytes)
        }
    }

    /// The bytes a handle may hold.
    static let handleBytes: Set<UInt8> = Set(Array("abcdefghijklmnopqrstuvwxyz0123456789_".utf8))

    /// A new random bearer token: `tok_` and 32 hex digits.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "tok_" + String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
