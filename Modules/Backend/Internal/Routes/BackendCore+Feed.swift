import Storage
import Wire

extension BackendCore {
    /// The home feed's items, newest first: posts (and replies) by the viewer and the accounts
    /// they follow, and reposts by the accounts they follow. Sorted by (time, source, id)
    /// descending; `?2, ?3, ?4` is the cursor's key, `?5` the limit.
    ///
    /// Each source is walked newest first along its time index (covering: a skipped item costs an
    /// index entry) and stops after `?5` matches, so a page costs O(limit × accounts / followed
    /// accounts) index entries, not O(all followed posts). The items are ranked and cut to `?5`
    /// before they are joined with their posts; the joined rows come back in no particular order
    /// and `feed` ranks them again: sorting them in SQL would copy each row's media JSON (its own
    /// and its parent's) into a temporary b-tree, about half of the query's time.
    static let feedSQL = """
        WITH followed (id) AS (SELECT followee FROM follows WHERE follower = ?1),
        own_posts (t, src, item, post, reposter) AS (
            SELECT p.created_at, 0, p.id, p.id, NULL FROM posts p INDEXED BY posts_by_time
            WHERE p.deleted = 0 AND (p.author = ?1 OR p.author IN followed)
              AND (p.created_at < ?2 OR (p.created_at = ?2 AND (?3 > 0 OR p.id < ?4)))
            ORDER BY p.created_at DESC, p.id DESC LIMIT ?5
        ),
        shared (t, src, item, post, reposter) AS (
            SELECT r.created_at, 1, r.id, r.post, r.user FROM reposts r INDEXED BY reposts_by_time
            JOIN posts p ON p.id = r.post
            WHERE p.deleted = 0 AND r.user IN followed
              AND (r.created_at < ?2 OR (r.created_at = ?2 AND ?3 > 1) OR (r.created_at = ?2 AND ?3 = 1 AND r.id < ?4))
            ORDER BY r.created_at DESC, r.id DESC LIMIT ?5
        ),
        items AS (
            SELECT * FROM own_posts UNION ALL SELECT * FROM shared
            ORDER BY t DESC, src DESC, item DESC LIMIT ?5
        )
        SELECT i.t, i.src, i.item, \(PostRow.columns("p")), \(PostRow.columns("pp")), ru.json
        FROM items i
        JOIN posts p ON p.id = i.post
        LEFT JOIN posts pp ON pp.id = p.parent AND pp.deleted = 0
        LEFT JOIN users ru ON ru.id = i.reposter
        """

    /// `GET /v1/feed?cursor=&limit=`: a page of the viewer's home feed, ranked by recency.
    ///
    /// A reply appears with its parent as context (`.reply(parent:)`), a repost with its
    /// reposter (`.repost(by:)`); each entry has its own id (`p<post>` or `r<repost>`), so the
    /// same media may appear twice in one page.
    func feed(_ route: RouteRequest) throws -> Response {
        let limit = try route.limit()
        let after = try route.cursor(list: "f", count: 3)?.parts ?? [Int64.max, Int64.max, Int64.max]
        return try read { db in
            let viewer = try authenticate(route.request, db)
            var builder = ResponseBuilder()
            var page = JSONWriter(capacity: 16 * 1024)
            page.beginObject()
            page.key("entries")
            page.beginArray()
            var rows: [FeedRow] = []
            rows.reserveCapacity(limit + 1)
            try db.forEach(Self.feedSQL, viewer.id, after[0], after[1], after[2], limit + 1) { row in
                guard let post = try PostRow(row, at: 3) else { return }
                let reposterOffset = 3 + 2 * PostRow.columnCount
                rows.append(
                    FeedRow(
                        key: (try row.int64(0), try row.int64(1), try row.int64(2)), post: post,
                        parent: try PostRow(row, at: 3 + PostRow.columnCount),
                        reposter: try row.isNull(reposterOffset) ? nil : try row.bytes(reposterOffset)))
            }
            rows.sort { $0.key > $1.key }
            let hasMore = rows.count > limit
            for entry in rows.prefix(limit) {
                page.beginObject()
                page.key("context")
                page.beginObject()
                if let reposter = entry.reposter {
                    page.field("type", "repost")
                    page.rawField("by", reposter)
                } else if let parent = entry.parent {
                    page.field("type", "reply")
                    page.rawField("parent", parent.json)
                    builder.add(parent)
                } else {
                    page.field("type", "standalone")
                }
                page.endObject()
                page.field("id", entry.key.1 == 0 ? "p\(entry.key.2)" : "r\(entry.key.2)")
                page.rawField("media", entry.post.json)
                page.endObject()
                builder.add(entry.post)
            }
            page.endArray()
            if hasMore, let last = rows.prefix(limit).last {
                page.field(
                    "nextCursor", Cursor(list: "f", parts: [last.key.0, last.key.1, last.key.2]).encoded)
            }
            page.endObject()
            return builder.response("page", page.bytes)
        }
    }
}

/// One entry of a feed page as the feed's query returns it: its rank key (time, source, item
/// id), its post, the post's parent (a reply's context) and the reposter's stored JSON.
private struct FeedRow {
    var key: (Int64, Int64, Int64)
    var post: PostRow
    var parent: PostRow?
    var reposter: [UInt8]?
}
