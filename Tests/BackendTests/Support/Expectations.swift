import Backend
import Foundation
import MediaModel
import Storage
import Wire

/// Reads what the backend's database says directly, to check what the routes answer.
enum Expectations {
    /// The feed entry ids of `viewer` in ranking order, straight from SQL.
    static func feedOrder(_ server: BackendServer, viewer: Int64 = 1) throws -> [String] {
        try server.database.query(
            """
            SELECT id FROM (
                SELECT 'p' || p.id AS id, p.created_at AS t, 0 AS src, p.id AS item FROM posts p
                WHERE p.deleted = 0 AND (p.author = ?1 OR p.author IN (SELECT followee FROM follows WHERE follower = ?1))
                UNION ALL
                SELECT 'r' || r.id, r.created_at, 1, r.id FROM reposts r JOIN posts p ON p.id = r.post
                WHERE p.deleted = 0 AND r.user IN (SELECT followee FROM follows WHERE follower = ?1)
            ) ORDER BY t DESC, src DESC, item DESC
            """, viewer
        ) { try $0.string(0) }
    }

    /// The ids of the accounts `viewer` follows.
    static func followees(_ server: BackendServer, of viewer: Int64 = 1) throws -> [Int64] {
        try server.database.query("SELECT followee FROM follows WHERE follower = ? ORDER BY followee", viewer)
        {
            try $0.int64(0)
        }
    }

    /// A post's counters as stored.
    static func counts(_ server: BackendServer, post: Int64) throws -> (
        likes: Int, replies: Int, reposts: Int
    ) {
        try server.database.queryFirst(
            "SELECT like_count, reply_count, repost_count FROM posts WHERE id = ?", post
        ) { (try $0.int(0), try $0.int(1), try $0.int(2)) } ?? (-1, -1, -1)
    }

    /// An integer from a one-value query.
    static func scalar(_ server: BackendServer, _ sql: String, _ values: (any SQLBindable)?...) throws -> Int
    {
        try server.database.queryFirst(sql, bindings: values) ?? -1
    }

    /// The id of the first top-level post `author` wrote, newest first.
    static func latestPost(_ server: BackendServer, by author: Int64) throws -> Int64 {
        try server.database.queryFirst(
            "SELECT id FROM posts WHERE author = ? AND parent IS NULL AND deleted = 0 ORDER BY id DESC LIMIT 1",
            author
        ) { try $0.int64(0) } ?? 0
    }

    /// The handle of a seed user id.
    static func handle(_ id: Int64) -> String { BackendSeed.handles[Int(id) - 1] }
}

extension Database {
    fileprivate func queryFirst(_ sql: String, bindings: [(any SQLBindable)?]) throws -> Int? {
        try query(sql, bindings: bindings) { try $0.int(0) }.first
    }
}

/// Every entry of a paginated list, page by page, until `nextCursor` is absent.
func pageThrough(
    _ client: TestClient, _ path: String, limit: Int, between: (Int) async -> Void = { _ in }
) async throws -> [FeedEntry] {
    var entries: [FeedEntry] = []
    var cursor: String?
    var page = 0
    repeat {
        var query = ["limit": String(limit)]
        if let cursor { query["cursor"] = cursor }
        let response = await client.get(path, query)
        guard response.status == 200 else { throw PagingFailure(response: response.text) }
        let decoded = try WireFormat.decode(FeedPage.self, from: response.body).payload
        entries += decoded.entries
        cursor = decoded.nextCursor
        page += 1
        await between(page)
    } while cursor != nil && page < 1000
    return entries
}

struct PagingFailure: Error {
    var response: String
}
