import Storage
import Wire

extension BackendCore {
    /// `GET /v1/posts/{id}`: one media with its facts.
    func post(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "m", noun: "post")
        return try read { db in
            let viewer = try authenticate(route, db)
            let post = try livePost(id, viewer: viewer.id, db)
            var builder = ResponseBuilder()
            builder.add(post)
            return builder.response("media", post.json)
        }
    }

    /// `GET /v1/posts/{id}/thread?cursor=&limit=`: the post's ancestors (root first), the post,
    /// and a page of its direct replies, oldest first.
    func thread(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "m", noun: "post")
        let limit = try route.limit()
        let after = try route.cursor(list: "t", count: 2)?.parts ?? [Int64.min, Int64.min]
        return try read { db in
            let viewer = try authenticate(route, db)
            let post = try livePost(id, viewer: viewer.id, db)
            var builder = ResponseBuilder()
            var thread = JSONWriter(capacity: 16 * 1024)
            thread.beginObject()

            // Ancestors: walk the parent chain (bounded, so a damaged chain cannot loop forever),
            // skipping deleted posts.
            var ancestors: [PostRow] = []
            var next = post.parent
            var steps = 0
            while let parentID = next, steps < 1000 {
                steps += 1
                guard
                    let parent = try db.queryFirst(
                        "SELECT \(PostRow.columns("p", withOwnership: true)) FROM posts p WHERE p.id = ?2",
                        viewer.id, parentID, map: { row in try PostRow(row, at: 0, withOwnership: true) })
                        ?? nil
                else { break }
                if !parent.deleted { ancestors.append(parent) }
                next = parent.parent
            }
            thread.key("ancestors")
            thread.beginArray()
            for ancestor in ancestors.reversed() {
                thread.raw(ancestor.json)
                builder.add(ancestor)
            }
            thread.endArray()
            thread.rawField("post", post.json)
            builder.add(post)

            thread.key("replies")
            thread.beginObject()
            thread.key("entries")
            thread.beginArray()
            var served = 0
            var lastKey: [Int64] = []
            var hasMore = false
            try db.forEach(
                """
                SELECT p.created_at, \(PostRow.columns("p")) FROM posts p
                WHERE p.parent = ?2 AND p.deleted = 0 AND (p.created_at, p.id) > (?3, ?4)
                ORDER BY p.created_at, p.id LIMIT ?5
                """, viewer.id, id, after[0], after[1], limit + 1
            ) { row in
                guard served < limit else {
                    hasMore = true
                    return
                }
                guard let reply = try PostRow(row, at: 1) else { return }
                thread.beginObject()
                thread.key("context")
                thread.beginObject()
                thread.field("type", "standalone")
                thread.endObject()
                thread.field("id", "p\(reply.id)")
                thread.rawField("media", reply.json)
                thread.endObject()
                builder.add(reply)
                lastKey = [try row.int64(0), reply.id]
                served += 1
            }
            thread.endArray()
            if hasMore { thread.field("nextCursor", Cursor(list: "t", parts: lastKey).encoded) }
            thread.endObject()
            thread.endObject()
            return builder.response("thread", thread.bytes)
        }
    }
}
