import Foundation
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// The most accounts `GET /v1/accounts` lists.
    static let accountListLimit = 500

    /// `GET /v1/accounts`: every account (up to 500, by id) with its counts, for onboarding. No
    /// bearer token needed.
    func accounts(_ route: RouteRequest) throws -> Response {
        try read { db in
            var list = JSONWriter(capacity: 16 * 1024)
            list.beginObject()
            list.key("items")
            list.beginArray()
            try db.forEach(
                """
                SELECT u.json,
                       (SELECT COUNT(*) FROM follows WHERE follower = u.id),
                       (SELECT COUNT(*) FROM follows WHERE followee = u.id),
                       (SELECT COUNT(*) FROM posts WHERE author = u.id AND deleted = 0)
                FROM users u ORDER BY u.id LIMIT ?
                """, Self.accountListLimit
            ) { row in
                list.beginObject()
                list.field("followerCount", try row.int(2))
                list.field("followingCount", try row.int(1))
                list.field("postCount", try row.int(3))
                list.rawField("user", try row.bytes(0))
                list.endObject()
            }
            list.endArray()
            list.endObject()
            var builder = ResponseBuilder()
            return builder.response("accounts", list.bytes)
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
