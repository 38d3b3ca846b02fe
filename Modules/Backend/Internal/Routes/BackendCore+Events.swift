import Foundation
import Storage
import Synchronization
import Wire

extension BackendCore {
    /// The longest a long poll may wait.
    static let maximumWait = 30

    /// `GET /v1/events?cursor=&limit=&wait=`: the viewer's events (reply to them, like of their
    /// post, new follower, mention, a new message in one of their conversations: its `message`,
    /// with the post it shares as the event's `media`) after the cursor, oldest first. `cursor=latest` skips to
    /// the newest event. With `wait=N` (seconds, at most 30) and nothing new, the request waits
    /// up to N seconds for an event before answering.
    ///
    /// `nextCursor` is always present: pass it back to continue where this page ended.
    func events(_ route: RouteRequest) async throws -> Response {
        let limit = try route.limit(default: 50)
        let wait = try Self.waitParameter(route)
        let cursorText = route.request.queryValue("cursor")
        let viewer = try database.withConnection { db in try authenticate(route.request, db) }
        let after: Int64
        if cursorText == "latest" {
            after =
                try database.queryFirst(
                    "SELECT COALESCE(MAX(id), 0) FROM events WHERE recipient = ?", viewer.id
                ) {
                    try $0.int64(0)
                } ?? 0
        } else {
            after = try route.cursor(list: "e", count: 1)?.parts[0] ?? 0
        }
        let deadline = clock.now.addingTimeInterval(Double(wait))
        while true {
            let generation = notifier.generation(of: viewer.id)
            let (response, count) = try eventPage(viewer: viewer.id, after: after, limit: limit)
            let remaining = deadline.timeIntervalSince(clock.now)
            if count > 0 || remaining <= 0 { return response }
            // Wake on an event written in this process or, on a database with notifications, in
            // another. Without them (SQLite), re-read every second for events another process
            // sharing the file wrote; with them, every 10 s, only for a notification missed while
            // the listener's connection was made anew.
            let slice = Swift.min(remaining, eventListener.withLock { $0 == nil } ? 1 : 10)
            await notifier.wait(
                for: viewer.id, after: generation, timeout: .milliseconds(Int64((slice * 1000).rounded())),
                clock: clock)
            if Task.isCancelled { return response }
        }
    }

    private static func waitParameter(_ route: RouteRequest) throws(APIError) -> Int {
        guard let text = route.request.queryValue("wait") else { return 0 }
        guard let value = Int(text), (0...maximumWait).contains(value) else {
            throw .invalidParameter(
                "wait", "expected whole seconds from 0 to \(maximumWait), found '\(text.prefix(40))'")
        }
        return value
    }

    private func eventPage(viewer: Int64, after: Int64, limit: Int) throws -> (Response, Int) {
        try database.withConnection { db in
            var builder = ResponseBuilder()
            var page = JSONWriter(capacity: 8 * 1024)
            page.beginObject()
            page.key("items")
            page.beginArray()
            var last = after
            var count = 0
            try db.forEach(
                """
                SELECT e.id, e.kind, e.created_at, u.json, \(PostRow.columns("p")),
                       dm.id, dm.conversation, dm.sender, dm.created_at, dm.text, dm.attachments, dm.shared_post,
                       dm.client_token
                FROM events e JOIN users u ON u.id = e.actor
                LEFT JOIN posts p ON p.id = e.post AND p.deleted = 0
                LEFT JOIN messages dm ON dm.id = e.message
                WHERE e.recipient = ?1 AND e.id > ?2 ORDER BY e.id LIMIT ?3
                """, viewer, after, limit
            ) { row in
                let id = try row.int64(0)
                page.beginObject()
                page.rawField("actor", try row.bytes(3))
                page.field("createdAt", try row.int64(2))
                page.field("id", "ev\(id)")
                page.field("kind", try row.string(1))
                if let post = try PostRow(row, at: 4) {
                    page.rawField("media", post.json)
                    builder.add(post)
                }
                let messageOffset = 4 + PostRow.columnCount
                if !(try row.isNull(messageOffset)) {
                    // The shared post, if any, is the event's media.
                    page.key("message")
                    try MessageRow(row, at: messageOffset, senderJSON: try row.bytes(3))
                        .write(into: &page, viewer: viewer, &builder)
                }
                page.endObject()
                last = id
                count += 1
            }
            page.endArray()
            page.field("nextCursor", Cursor(list: "e", parts: [last]).encoded)
            page.endObject()
            return (builder.response("events", page.bytes), count)
        }
    }
}
