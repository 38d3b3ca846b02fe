import Foundation
import MediaModel
import Storage
import Wire

// Direct messages: conversations between two or more accounts, their messages (text, photos
// through a post's upload path, a shared post shown as a card) and each member's read position.
// Only a conversation's members may read or write it.

extension BackendCore {
    // MARK: - Conversations

    /// `POST /v1/conversations` `{"members": ["u2", "u3"]}`: the conversation of the viewer and
    /// these accounts, made when there is none (201) or found (200): one conversation per set of
    /// members. The viewer may be listed or not; 2 to ``MessageLimits/membersPerConversation``
    /// accounts in all.
    func startConversation(_ route: RouteRequest) throws -> Response {
        let object = try route.bodyObject()
        guard case .array(let elements)? = object.optionalValue("members") else {
            throw APIError.invalidBody(
                "members: expected an array of user ids (\"u2\"), found "
                    + (object.optionalValue("members")?.briefDescription ?? "nothing"))
        }
        // A cheap bound before anything is parsed or read: the viewer and repeats may be listed,
        // so the exact count is checked once they are known.
        guard elements.count <= 2 * MessageLimits.membersPerConversation else {
            throw Self.tooManyMembers(elements.count)
        }
        var others: [Int64] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element, text.hasPrefix("u"), let id = Int64(text.dropFirst()),
                id > 0,
                text == "u\(id)"
            else {
                throw APIError.invalidBody(
                    "members[\(index)]: expected a user id such as \"u2\", found \(element.briefDescription)")
            }
            others.append(id)
        }
        return try database.transaction { db in
            let viewer = try authenticate(route.request, db)
            let members = Set(others + [viewer.id]).sorted()
            guard members.count <= MessageLimits.membersPerConversation else {
                throw Self.tooManyMembers(members.count)
            }
            guard members.count >= 2 else {
                throw APIError.badRequest(
                    "members: a conversation needs at least one account besides you", code: "too_few_members")
            }
            for member in members where member != viewer.id { _ = try account(member, db) }
            let key = members.map(String.init).joined(separator: ",")
            var status = 200
            var id = try db.queryFirst("SELECT id FROM conversations WHERE member_key = ?", key) {
                try $0.int64(0)
            }
            if id == nil {
                let now = nowMilliseconds
                let made =
                    try db.queryFirst(
                        "INSERT INTO conversations (member_key, created_at, last_at) VALUES (?, ?, ?) RETURNING id",
                        key, now, now
                    ) { try $0.int64(0) } ?? 0
                for member in members {
                    try db.execute(
                        #"INSERT INTO conversation_members (conversation, "user") VALUES (?, ?)"#, made,
                        member)
                }
                id = made
                status = 201
            }
            var builder = ResponseBuilder()
            let payload = try conversationJSON(id ?? 0, viewer: viewer.id, db, &builder)
            return builder.response("conversation", payload, status: status)
        }
    }

    /// `GET /v1/conversations?cursor=&limit=`: the viewer's conversations, the one with the newest
    /// message first (a conversation without messages ranks by when it was started), each with
    /// its members, last message and the viewer's unread count. `nextCursor` when more follow.
    func conversations(_ route: RouteRequest) throws -> Response {
        let limit = try route.limit()
        let after = try route.cursor(list: "k", count: 2)?.parts ?? [Int64.max, Int64.max]
        return try read { db in
            let viewer = try authenticate(route.request, db)
            let ranked = try db.query(
                """
                SELECT c.id, c.last_at FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation
                WHERE cm.user = ?1 AND (c.last_at < ?2 OR (c.last_at = ?2 AND c.id < ?3))
                ORDER BY c.last_at DESC, c.id DESC LIMIT ?4
                """, viewer.id, after[0], after[1], limit + 1
            ) { row in (id: try row.int64(0), lastAt: try row.int64(1)) }
            let page = ranked.prefix(limit)
            var builder = ResponseBuilder()
            var writer = JSONWriter(capacity: 1024 * page.count + 64)
            writer.beginObject()
            writer.key("items")
            writer.beginArray()
            for conversation in page {
                writer.raw(try conversationJSON(conversation.id, viewer: viewer.id, db, &builder))
            }
            writer.endArray()
            if ranked.count > limit, let last = page.last {
                writer.field("nextCursor", Cursor(list: "k", parts: [last.lastAt, last.id]).encoded)
            }
            writer.endObject()
            return builder.response("conversations", writer.bytes)
        }
    }

    // MARK: - Messages

    /// `GET /v1/conversations/{id}/messages?before=|after=&limit=`: a page of the conversation's
    /// messages, oldest first, and the conversation. Without a cursor, the newest `limit`;
    /// `before` the `limit` just older than the cursor, `after` the `limit` just newer.
    /// `olderCursor` (for `before`) is there when older messages exist; `newerCursor` (for
    /// `after`) always is: with no newer message yet, its page is empty.
    func conversationMessages(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "c", noun: "conversation")
        let limit = try route.limit(default: 50)
        let before = try Self.messageCursor(route, "before")
        let after = try Self.messageCursor(route, "after")
        if before != nil, after != nil {
            throw APIError.badRequest(
                "pass 'before' (older messages) or 'after' (newer messages), not both",
                code: "invalid_parameter")
        }
        return try read { db in
            let viewer = try authenticate(route.request, db)
            _ = try membership(id, viewer: viewer.id, db)
            var messages: [MessageRow]
            let select =
                "SELECT \(MessageRow.columns) FROM messages m \(MessageRow.joins) WHERE m.conversation = ?2"
            if let after {
                messages = try db.query(
                    select + " AND m.id > ?3 ORDER BY m.id LIMIT ?4", viewer.id, id, after, limit,
                    map: { try MessageRow($0) })
            } else {
                messages = try db.query(
                    select + " AND m.id < ?3 ORDER BY m.id DESC LIMIT ?4", viewer.id, id, before ?? Int64.max,
                    limit, map: { try MessageRow($0) })
                messages.reverse()
            }
            // The bound the page starts after and ends before, for an empty page.
            let first = messages.first?.id ?? (after.map { $0 + 1 } ?? before ?? 1)
            let last = messages.last?.id ?? (after ?? (before.map { $0 - 1 } ?? 0))
            let older = try db.queryFirst(
                "SELECT 1 FROM messages WHERE conversation = ? AND id < ? LIMIT 1", id, first,
                map: { _ in true })
            var builder = ResponseBuilder(expectedPosts: 4)
            var writer = JSONWriter(capacity: 512 * messages.count + 1024)
            writer.beginObject()
            writer.rawField("conversation", try conversationJSON(id, viewer: viewer.id, db, &builder))
            writer.key("items")
            writer.beginArray()
            for message in messages { message.write(into: &writer, viewer: viewer.id, &builder) }
            writer.endArray()
            writer.field("newerCursor", Cursor(list: "d", parts: [last]).encoded)
            if older == true { writer.field("olderCursor", Cursor(list: "d", parts: [first]).encoded) }
            writer.endObject()
            return builder.response("messages", writer.bytes)
        }
    }

    /// `POST /v1/conversations/{id}/messages` `{"text": "...", "attachments": [...],
    /// "sharedPostID": "m12"}` with an `Idempotency-Key`: 201 with the message (`mutation.message`),
    /// applied at most once per key (a resend gets the first answer). Text, photos (a post's upload
    /// path and limits) or a shared post, at least one of them; a shared post must exist (404).
    /// The other members get a `message` event. Membership is checked before any photo is
    /// decoded.
    func sendMessage(_ route: RouteRequest) async throws -> Response {
        _ = try route.clientToken()
        let id = try route.id("id", prefix: "c", noun: "conversation")
        _ = try read { db in try membership(id, viewer: try authenticate(route.request, db).id, db) }
        var sharedPost: Int64?
        let prepared = try await preparedBody(route) { route in
            let checked = try Self.checkedMessageBody(route)
            sharedPost = checked.sharedPost
            return (checked.text, checked.attachments)
        }
        let shared = sharedPost
        return try mutate(route) { db, viewer, token, recipients in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            _ = try membership(id, viewer: viewer.id, db)
            var body = try prepared.get()
            if let shared { _ = try livePost(shared, viewer: viewer.id, db) }
            try storePhotos(body.uploads, owner: viewer.id, into: &body.attachments, db)
            let now = nowMilliseconds
            let attachments: [UInt8]? =
                body.attachments.isEmpty
                ? nil : [UInt8](JSONValue.array(body.attachments.map(\.json)).serialized())
            let messageID =
                try db.queryFirst(
                    """
                    INSERT INTO messages (conversation, sender, created_at, text, attachments, shared_post, client_token)
                    VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                    """, id, viewer.id, now, body.text, attachments, shared, token
                ) { try $0.int64(0) } ?? 0
            try db.execute(
                "UPDATE conversations SET last_message = ?, last_at = ? WHERE id = ?", messageID, now, id)
            try db.execute(
                #"UPDATE conversation_members SET read_up_to = ? WHERE conversation = ? AND "user" = ?"#,
                messageID, id,
                viewer.id)
            let members = try db.query(
                #"SELECT "user" FROM conversation_members WHERE conversation = ? ORDER BY "user""#, id
            ) { try $0.int64(0) }
            for member in members {
                try recordEvent(
                    "message", for: member, by: viewer.id, post: shared, message: messageID, db, &recipients)
            }
            guard
                let message = try db.queryFirst(
                    "SELECT \(MessageRow.columns) FROM messages m \(MessageRow.joins) WHERE m.id = ?2",
                    viewer.id,
                    messageID, map: { try MessageRow($0) })
            else { throw APIError.internalError("message 'dm\(messageID)' was not stored") }
            var builder = ResponseBuilder()
            return builder.response(
                "mutation",
                Self.mutation(token) { writer in
                    writer.field("conversationID", "c\(id)")
                    writer.key("message")
                    message.write(into: &writer, viewer: viewer.id, &builder)
                }, status: 201)
        }
    }

    /// `PUT /v1/conversations/{id}/read` `{"messageID": "dm12"}`: the viewer has read the
    /// conversation up to that message (a message of this conversation, else 404). The read
    /// position only moves forward: an older message leaves it where it is. Answers the position
    /// and the unread count after the change.
    func markConversationRead(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "c", noun: "conversation")
        let object = try route.bodyObject()
        let text = try object.read { try $0.string("messageID") }
        guard text.hasPrefix("dm"), let messageID = Int64(text.dropFirst(2)), messageID > 0,
            text == "dm\(messageID)"
        else {
            throw APIError.invalidBody(
                "messageID: expected a message id such as \"dm12\", found '\(text.prefix(40))'")
        }
        return try database.transaction { db in
            let viewer = try authenticate(route.request, db)
            _ = try membership(id, viewer: viewer.id, db)
            guard
                try db.queryFirst(
                    "SELECT 1 FROM messages WHERE id = ? AND conversation = ?", messageID, id,
                    map: { _ in true })
                    != nil
            else { throw APIError.notFound("no message with id 'dm\(messageID)' in conversation 'c\(id)'") }
            try db.execute(
                #"UPDATE conversation_members SET read_up_to = \#(db.dialect.greatest)(read_up_to, ?) WHERE conversation = ? AND "user" = ?"#,
                messageID, id, viewer.id)
            let readUpTo = try membership(id, viewer: viewer.id, db)
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("conversationID", "c\(id)")
            writer.field("readUpTo", "dm\(readUpTo)")
            writer.field("unreadCount", try unreadCount(id, viewer: viewer.id, after: readUpTo, db))
            writer.endObject()
            var builder = ResponseBuilder()
            return builder.response("read", writer.bytes)
        }
    }

    // MARK: - Helpers

    /// 400 `too_many_members` for a conversation of `count` accounts.
    private static func tooManyMembers(_ count: Int) -> APIError {
        APIError(
            status: 400, code: "too_many_members",
            message:
                "members: \(count) accounts is over the limit of \(MessageLimits.membersPerConversation) "
                + "in one conversation, you included")
    }

    /// The viewer's read position in a conversation they belong to: 404 when there is no such
    /// conversation, 403 when the viewer is not a member.
    func membership(_ conversation: Int64, viewer: Int64, _ db: borrowing Connection) throws -> Int64 {
        guard
            try db.queryFirst("SELECT 1 FROM conversations WHERE id = ?", conversation, map: { _ in true })
                != nil
        else { throw APIError.notFound("no conversation with id 'c\(conversation)'") }
        guard
            let readUpTo = try db.queryFirst(
                #"SELECT read_up_to FROM conversation_members WHERE conversation = ? AND "user" = ?"#,
                conversation,
                viewer, map: { try $0.int64(0) })
        else {
            throw APIError.forbidden(
                "conversation 'c\(conversation)' is not yours: only its members may read or write it",
                code: "not_a_member")
        }
        return readUpTo
    }

    /// The messages of others after the read position.
    private func unreadCount(
        _ conversation: Int64, viewer: Int64, after readUpTo: Int64, _ db: borrowing Connection
    )
        throws -> Int
    {
        try db.queryFirst(
            "SELECT COUNT(*) FROM messages WHERE conversation = ? AND id > ? AND sender != ?", conversation,
            readUpTo,
            viewer, map: { try $0.int(0) }) ?? 0
    }

    /// A conversation as the viewer sees it: `{"createdAt", "id", "lastMessage", "members",
    /// "readUpTo", "seenUpTo", "unreadCount", "updatedAt"}` (members in id order; `lastMessage`,
    /// `readUpTo` and `seenUpTo` only when there is one). `seenUpTo` is the newest message every
    /// other member has read: its sender's "seen".
    private func conversationJSON(
        _ id: Int64, viewer: Int64, _ db: borrowing Connection, _ builder: inout ResponseBuilder
    ) throws -> [UInt8] {
        guard
            let row = try db.queryFirst(
                "SELECT created_at, last_at, last_message FROM conversations WHERE id = ?", id,
                map: { row in
                    (try row.int64(0), try row.int64(1), try row.isNull(2) ? nil : try row.int64(2))
                })
        else { throw APIError.notFound("no conversation with id 'c\(id)'") }
        let members = try db.query(
            """
            SELECT u.json FROM conversation_members cm JOIN users u ON u.id = cm.user
            WHERE cm.conversation = ? ORDER BY cm.user
            """, id
        ) { try $0.bytes(0) }
        let readUpTo = try membership(id, viewer: viewer, db)
        let last = try row.2.flatMap { message in
            try db.queryFirst(
                "SELECT \(MessageRow.columns) FROM messages m \(MessageRow.joins) WHERE m.id = ?2", viewer,
                message,
                map: { try MessageRow($0) })
        }
        var writer = JSONWriter(capacity: 256 * members.count + 1024)
        writer.beginObject()
        writer.field("createdAt", row.0)
        writer.field("id", "c\(id)")
        if let last {
            writer.key("lastMessage")
            last.write(into: &writer, viewer: viewer, &builder)
        }
        writer.key("members")
        writer.beginArray()
        for member in members { writer.raw(member) }
        writer.endArray()
        if readUpTo > 0 { writer.field("readUpTo", "dm\(readUpTo)") }
        let seenUpTo =
            try db.queryFirst(
                #"SELECT MIN(read_up_to) FROM conversation_members WHERE conversation = ? AND "user" != ?"#,
                id,
                viewer, map: { try $0.isNull(0) ? 0 : try $0.int64(0) }) ?? 0
        if seenUpTo > 0 { writer.field("seenUpTo", "dm\(seenUpTo)") }
        writer.field("unreadCount", try unreadCount(id, viewer: viewer, after: readUpTo, db))
        writer.field("updatedAt", row.1)
        writer.endObject()
        return writer.bytes
    }

    /// The `before` or `after` cursor of a messages page (`d:<message id>`), or nil.
    private static func messageCursor(_ route: RouteRequest, _ name: String) throws(APIError) -> Int64? {
        guard let text = route.request.queryValue(name), !text.isEmpty else { return nil }
        do {
            return try Cursor.decode(text, list: "d", count: 1).parts[0]
        } catch {
            throw .invalidParameter(
                name,
                "'\(text.prefix(60))' is not a cursor of a conversation's messages; pass the olderCursor or "
                    + "newerCursor of a previous page")
        }
    }

    /// A message's body: `text` (may be empty when there are attachments or a shared post),
    /// `attachments` (optional, a post's limits) and `sharedPostID` (optional, `m<digits>`).
    static func checkedMessageBody(_ route: RouteRequest) throws -> (
        text: String, attachments: CheckedAttachments, sharedPost: Int64?
    ) {
        let object = try route.bodyObject(maximumSize: maximumPostBodySize)
        let text = try object.read { try $0.optionalString("text") } ?? ""
        try checkText(text)
        var sharedPost: Int64?
        if let shared = try object.read({ try $0.optionalString("sharedPostID") }) {
            guard shared.hasPrefix("m"), let id = Int64(shared.dropFirst()), id > 0, shared == "m\(id)" else {
                throw APIError.invalidBody(
                    "sharedPostID: expected a post id such as \"m12\", found '\(shared.prefix(40))'")
            }
            sharedPost = id
        }
        let attachments = try checkedAttachments(object)
        guard
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !attachments.elements.isEmpty
                || sharedPost != nil
        else {
            throw APIError.invalidBody(
                "a message needs text, an attachment or a shared post; all three are empty")
        }
        return (text, attachments, sharedPost)
    }
}

/// A stored message with its sender's JSON and, when it shares a post that still lives, the
/// post (read with `columns` and `joins`, the viewer bound as `?1`).
struct MessageRow: Sendable {
    var id: Int64
    var conversation: Int64
    var sender: Int64
    var createdAt: Int64
    var text: String
    /// The attachments' JSON array, nil for none.
    var attachments: [UInt8]?
    var sharedPostID: Int64?
    var clientToken: String?
    var senderJSON: [UInt8]
    /// The shared post, nil when there is none or it was deleted.
    var sharedPost: PostRow?

    static let columns =
        "m.id, m.conversation, m.sender, m.created_at, m.text, m.attachments, m.shared_post, m.client_token, "
        + "su.json, \(PostRow.columns("sp"))"
    static let joins =
        "JOIN users su ON su.id = m.sender LEFT JOIN posts sp ON sp.id = m.shared_post AND sp.deleted = 0"

    /// Reads the `columns`.
    init(_ row: borrowing RowCursor) throws {
        try self.init(row, at: 0, senderJSON: row.bytes(8))
        sharedPost = try PostRow(row, at: 9)
    }

    /// Reads the message's own eight columns from `offset` (an event's, whose actor is the
    /// sender), without a shared post.
    init(_ row: borrowing RowCursor, at offset: Int, senderJSON: [UInt8]) throws {
        id = try row.int64(offset)
        conversation = try row.int64(offset + 1)
        sender = try row.int64(offset + 2)
        createdAt = try row.int64(offset + 3)
        text = try row.string(offset + 4)
        attachments = try row.isNull(offset + 5) ? nil : try row.bytes(offset + 5)
        sharedPostID = try row.isNull(offset + 6) ? nil : try row.int64(offset + 6)
        clientToken = try row.isNull(offset + 7) ? nil : try row.string(offset + 7)
        self.senderJSON = senderJSON
        sharedPost = nil
    }

    /// Writes `{"attachments", "clientToken", "conversationID", "createdAt", "id", "sender",
    /// "sharedPost", "sharedPostID", "text"}`; the client token only to its sender (their device
    /// matches its pending message by it), the shared post's facts into `builder`.
    func write(into writer: inout JSONWriter, viewer: Int64, _ builder: inout ResponseBuilder) {
        writer.beginObject()
        if let attachments { writer.rawField("attachments", attachments) }
        if let clientToken, sender == viewer { writer.field("clientToken", clientToken) }
        writer.field("conversationID", "c\(conversation)")
        writer.field("createdAt", createdAt)
        writer.field("id", "dm\(id)")
        writer.rawField("sender", senderJSON)
        if let sharedPost {
            writer.rawField("sharedPost", sharedPost.json)
            builder.add(sharedPost)
        }
        if let sharedPostID { writer.field("sharedPostID", "m\(sharedPostID)") }
        writer.field("text", text)
        writer.endObject()
    }
}
