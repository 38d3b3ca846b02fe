import Basics
import Foundation
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// The home feed's items, newest first: posts (and replies) by the viewer and the accounts
    /// they follow, and reposts by the accounts they follow. Ranked by (time, source, id)
    /// descending; `?2, ?3, ?4` is the cursor's key, `?5` the limit.
    ///
    /// The ranking walk is one indexed cursor: `feed_items` holds every item a feed can show,
    /// keyed by that rank, with the account it counts for, so the walk goes down its key from
    /// the cursor, skips the items of accounts the viewer does not follow (an entry each, never
    /// a row of `posts`) and stops at `?5` matches. The items are cut to the page before they
    /// are joined with their posts; the joined rows come back in no particular order and `feed`
    /// ranks them again: sorting them in SQL would copy each row's media JSON (its own and its
    /// parent's) into a temporary b-tree.
    static let feedSQL = """
        WITH followed (id) AS (SELECT followee FROM follows WHERE follower = ?1),
        items (t, src, item, post, reposter) AS (
            SELECT f.t, f.src, f.item, f.post, CASE WHEN f.src = 1 THEN f.actor END FROM feed_items f
            WHERE (f.t, f.src, f.item) < (?2, ?3, ?4) AND (f.actor IN followed OR (f.src = 0 AND f.actor = ?1))
            ORDER BY f.t DESC, f.src DESC, f.item DESC LIMIT ?5
        )
        SELECT i.t, i.src, i.item, \(PostRow.columns("p")), \(PostRow.columns("pp")), ru.json
        FROM items i
        JOIN posts p ON p.id = i.post
        LEFT JOIN posts pp ON pp.id = p.parent AND pp.deleted = 0
        LEFT JOIN users ru ON ru.id = i.reposter
        """

    /// `feedSQL` on PostgreSQL: `IN` takes a subquery rather than a table's name.
    static let feedPostgres = feedSQL.replacingOccurrences(
        of: " IN followed", with: " IN (SELECT id FROM followed)")

    /// `GET /v1/feed?cursor=&limit=`: a page of the viewer's home feed, ranked by recency.
    ///
    /// A reply appears with its parent as context (`.reply(parent:)`), a repost with its
    /// reposter (`.repost(by:)`); each entry has its own id (`p<post>` or `r<repost>`), so the
    /// same media may appear twice in one page.
    ///
    /// Each row's stored JSON (its post's, its parent's, its reposter's) is copied once, from
    /// where SQLite holds it into one buffer for the page; once the rows are ranked, the facts
    /// are gathered and the document is written around them into one buffer sized for it all,
    /// which becomes the response's body without another copy.
    func feed(_ route: RouteRequest) throws -> Response {
        let limit = try route.limit()
        let after = try route.cursor(list: "f", count: 3)?.parts ?? [Int64.max, Int64.max, Int64.max]
        return try read { db in
            let viewer = try authenticate(route, db)
            var stored: [UInt8] = []
            stored.reserveCapacity(limit * 4 * 1024)
            func store(_ row: borrowing RowCursor, _ column: Int) throws -> Range<Int> {
                let start = stored.count
                try row.withUnsafeBytes(column) { stored.append(contentsOf: $0) }
                return start..<stored.count
            }
            var rows: [FeedRow] = []
            rows.reserveCapacity(limit + 1)
            let sql = db.dialect == .sqlite ? Self.feedSQL : Self.feedPostgres
            try db.forEach(sql, viewer.id, after[0], after[1], after[2], limit + 1) { row in
                let postOffset = 3
                let parentOffset = postOffset + PostRow.columnCount
                let reposterOffset = parentOffset + PostRow.columnCount
                guard let post = try PostRow(row, at: postOffset, readingJSON: false) else { return }
                let parent = try PostRow(row, at: parentOffset, readingJSON: false)
                rows.append(
                    FeedRow(
                        key: (try row.int64(0), try row.int64(1), try row.int64(2)), post: post,
                        media: try store(row, PostRow.jsonColumn(at: postOffset)), parent: parent,
                        parentMedia: parent == nil
                            ? 0..<0 : try store(row, PostRow.jsonColumn(at: parentOffset)),
                        reposter: try row.isNull(reposterOffset) ? nil : try store(row, reposterOffset)))
            }
            rows.sort { $0.key > $1.key }
            let hasMore = rows.count > limit
            let entries = rows.prefix(limit)
            // The page's tag, from what the query returned, before anything is written.
            var hash = FNV1a()
            func combine(_ numbers: Int64...) {
                for number in numbers { withUnsafeBytes(of: number.littleEndian) { hash.combine($0) } }
            }
            combine(Int64(EntityTag.version), viewer.id, Int64(limit), after[0], after[1], after[2])
            for entry in entries {
                combine(entry.key.0, entry.key.1, entry.key.2, entry.post.id, entry.post.facts.revision)
                if let parent = entry.parent { combine(parent.id, parent.facts.revision) }
                if let reposter = entry.reposter { hash.combine(stored[reposter]) }
                hash.endPart()
            }
            combine(hasMore ? 1 : 0)
            let tag = EntityTag.make("f", hash.value)
            if EntityTag.matches(route.request.headers["If-None-Match"], tag) {
                return EntityTag.notModified(tag)
            }
            var builder = ResponseBuilder(expectedPosts: 2 * entries.count)
            for entry in entries {
                if entry.reposter == nil, let parent = entry.parent { builder.add(parent) }
                builder.add(entry.post)
            }
            let body = builder.document("page", payloadCapacity: stored.count + entries.count * 96 + 128) {
                page in
                page.beginObject()
                page.key(literal: "entries")
                page.beginArray()
                for entry in entries {
                    page.beginObject()
                    page.key(literal: "context")
                    page.beginObject()
                    if let reposter = entry.reposter {
                        page.field(literal: "type", "repost")
                        page.rawField(literal: "by", stored[reposter])
                    } else if entry.parent != nil {
                        page.field(literal: "type", "reply")
                        page.rawField(literal: "parent", stored[entry.parentMedia])
                    } else {
                        page.field(literal: "type", "standalone")
                    }
                    page.endObject()
                    page.key(literal: "id")
                    page.string(UInt8(ascii: entry.key.1 == 0 ? "p" : "r"), entry.key.2)
                    page.rawField(literal: "media", stored[entry.media])
                    page.endObject()
                }
                page.endArray()
                if hasMore, let last = entries.last {
                    page.field(
                        literal: "nextCursor",
                        Cursor(list: "f", parts: [last.key.0, last.key.1, last.key.2]).encoded)
                }
                page.endObject()
            }
            return .json(200, body, headers: ["ETag": tag])
        }
    }
}

/// One entry of a feed page as the feed's query returns it: its rank key (time, source, item
/// id), its post and the post's parent (a reply's context) without their JSON, and where the
/// page's buffer of stored JSON holds the post's, the parent's and the reposter's.
private struct FeedRow {
    var key: (Int64, Int64, Int64)
    var post: PostRow
    var media: Range<Int>
    var parent: PostRow?
    var parentMedia: Range<Int>
    var reposter: Range<Int>?
}
