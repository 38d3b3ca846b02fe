import Foundation
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// `GET /v1/users/{id}?cursor=&limit=`: a user, their counts, whether the viewer follows
    /// them, and a page of their posts (replies shown with their parent), newest first.
    func profile(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "u", noun: "user")
        return try profile(route, userID: id)
    }

    /// `GET /v1/me`: the viewer's own profile.
    func me(_ route: RouteRequest) throws -> Response {
        try profile(route, userID: nil)
    }

    /// `PUT /v1/me/profile` `{"displayName": "Grace H.", "bio": "..."}`: sets the signed-in
    /// user's display name (trimmed; 1 to 50 characters), bio (up to 300, line breaks allowed)
    /// or both, as a mutation: its `Idempotency-Key` is applied once, and a retry gets the first
    /// answer. Answers 200 with a `mutation` (`changed`, `userID`); a field left out is kept, one
    /// over its limit is a 400 naming the limit, and nothing changes.
    ///
    /// A post keeps its author in its stored media, so the user's posts are written again with
    /// the new name (and their revision moved, so every page showing them has a new tag), in the
    /// same transaction. Everything else (events, messages, the accounts list) reads the user's
    /// row.
    func updateProfile(_ route: RouteRequest) throws -> Response {
        try mutate(route) { db, viewer, token, _ in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let object = try route.bodyObject()
            let name = try object.read { try $0.optionalString("displayName") }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let bio = try object.read { try $0.optionalString("bio") }
            guard name != nil || bio != nil else {
                throw APIError.invalidBody("send displayName, bio or both")
            }
            if let name { try ProfileText.displayName.check(name) }
            if let bio { try ProfileText.bio.check(bio) }
            let stored = try db.queryFirst("SELECT json FROM users WHERE id = ?", viewer.id) {
                try $0.bytes(0)
            }
            let old =
                try stored.map { try User(json: JSONValue(parsing: Data($0)), at: .root) } ?? viewer.user
            func renamed(_ user: User) -> User {
                User(
                    id: user.id, handle: user.handle, displayName: name ?? user.displayName,
                    avatar: user.avatar,
                    bio: bio ?? user.bio)
            }
            let user = renamed(old)
            let changed = user != old
            try db.execute(
                "UPDATE users SET display_name = ?, bio = ?, json = ? WHERE id = ?", user.displayName,
                user.bio,
                Array(user.json.serialized()), viewer.id)
            if changed {
                let posts = try db.query("SELECT id, json FROM posts WHERE author = ?", viewer.id) { row in
                    (try row.int64(0), try row.bytes(1))
                }
                for (id, json) in posts {
                    let media = try Media(json: JSONValue(parsing: Data(json)), at: .root)
                    try db.execute(
                        "UPDATE posts SET json = ?, revision = revision + 1 WHERE id = ?",
                        Array(media.byAuthor(renamed(media.author)).json.serialized()), id)
                }
            }
            var builder = ResponseBuilder()
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.field("changed", changed)
                    $0.field("userID", "u\(viewer.id)")
                })
        }
    }

    private func profile(_ route: RouteRequest, userID: Int64?) throws -> Response {
        let limit = try route.limit()
        let after = try route.cursor(list: "u", count: 2)?.parts ?? [Int64.max, Int64.max]
        return try read { db in
            let viewer = try authenticate(route, db)
            let user = try account(userID ?? viewer.id, db)
            let counts = try db.queryFirst(
                """
                SELECT (SELECT COUNT(*) FROM follows WHERE followee = ?1),
                       (SELECT COUNT(*) FROM follows WHERE follower = ?1),
                       (SELECT COUNT(*) FROM posts WHERE author = ?1 AND deleted = 0),
                       EXISTS(SELECT 1 FROM follows WHERE follower = ?2 AND followee = ?1)
                """, user.id, viewer.id
            ) { row in (try row.int(0), try row.int(1), try row.int(2), try row.bool(3)) }
            var builder = ResponseBuilder()
            var profile = JSONWriter(capacity: 16 * 1024)
            profile.beginObject()
            profile.rawField("user", user.user.json.serialized())
            profile.field("followerCount", counts?.0 ?? 0)
            profile.field("followingCount", counts?.1 ?? 0)
            profile.field("postCount", counts?.2 ?? 0)
            profile.field("viewerFollows", counts?.3 ?? false)
            profile.field("isViewer", user.id == viewer.id)
            profile.key("posts")
            profile.beginObject()
            profile.key("entries")
            profile.beginArray()
            var served = 0
            var lastKey: [Int64] = []
            var hasMore = false
            try db.forEach(
                """
                SELECT p.created_at, \(PostRow.columns("p")), \(PostRow.columns("pp")) FROM posts p
                LEFT JOIN posts pp ON pp.id = p.parent AND pp.deleted = 0
                WHERE p.author = ?2 AND p.deleted = 0 AND (p.created_at, p.id) < (?3, ?4)
                ORDER BY p.created_at DESC, p.id DESC LIMIT ?5
                """, viewer.id, user.id, after[0], after[1], limit + 1
            ) { row in
                guard served < limit else {
                    hasMore = true
                    return
                }
                guard let post = try PostRow(row, at: 1) else { return }
                let parent = try PostRow(row, at: 1 + PostRow.columnCount)
                profile.beginObject()
                profile.key("context")
                profile.beginObject()
                if let parent {
                    profile.field("type", "reply")
                    profile.rawField("parent", parent.json)
                    builder.add(parent)
                } else {
                    profile.field("type", "standalone")
                }
                profile.endObject()
                profile.field("id", "p\(post.id)")
                profile.rawField("media", post.json)
                profile.endObject()
                builder.add(post)
                lastKey = [try row.int64(0), post.id]
                served += 1
            }
            profile.endArray()
            if hasMore { profile.field("nextCursor", Cursor(list: "u", parts: lastKey).encoded) }
            profile.endObject()
            profile.endObject()
            return builder.response("profile", profile.bytes)
        }
    }
}
