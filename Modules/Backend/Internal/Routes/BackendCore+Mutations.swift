import Basics
import Foundation
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// The longest post text, in characters (``PostLimits/textCharacters``): manifest-lint checks
    /// that no app's composer allows more, so no app lets a person write a post the server refuses.
    static let maximumTextLength = PostLimits.textCharacters
    /// The most attachments one post may carry.
    static let maximumAttachments = PostLimits.attachmentsPerPost

    /// Applies a mutation at most once per (user, client token), in one transaction with the
    /// record of its outcome: a retry with the same token (after a lost response) gets the SAME
    /// response back, marked `Idempotent-Replayed: true`, and changes nothing. A token reused
    /// for a different request is a 409. Outcomes that are 4xx are recorded too (a retry fails
    /// the same way); a 401 is not (it is decided before the user is known).
    ///
    /// Tokens are scoped to the user: another account's request with the same token is a request
    /// of its own, and never sees this one's response.
    ///
    /// - Parameters:
    ///   - apply: makes the change and its response; throwing an `APIError` rolls the change back
    ///     and records the error response. It gets the connection, the viewer, the client token
    ///     and the set of users to wake on the event stream.
    func mutate(
        _ route: RouteRequest,
        _ apply: (borrowing Connection, Account?, String?, inout Set<Int64>) throws -> Response
    ) throws -> Response {
        let request = route.request
        let token: String? = try route.clientToken()
        var hash = FNV1a()
        for part in [Array(request.method.rawValue.utf8), Array(request.path.utf8), Array(request.body)] {
            hash.combine(part)
            hash.endPart()
        }
        let fingerprint = String(hash.value, radix: 16)
        var recipients: Set<Int64> = []
        let response = try database.transaction { db in
            let viewer: Account? = try authenticate(request, db)
            let user = viewer?.id ?? 0
            if let token,
                let stored = try db.queryFirst(
                    #"SELECT fingerprint, status, body FROM mutations WHERE "user" = ? AND token = ?"#, user,
                    token,
                    map: { row in (try row.string(0), try row.int(1), try row.data(2)) })
            {
                guard stored.0 == fingerprint else {
                    throw APIError.conflict(
                        "client token '\(token.prefix(40))' was already used for a different request; make a new "
                            + "token for each new mutation", code: "client_token_reused")
                }
                var replay = Response.json(stored.1, stored.2)
                replay.headers["Idempotent-Replayed"] = "true"
                return replay
            }
            var response: Response
            do {
                response = try db.transaction { db in try apply(db, viewer, token, &recipients) }
            } catch let error as APIError where error.status != 401 {
                response = error.response
                recipients = []
            }
            if let token {
                try db.execute(
                    #"INSERT INTO mutations ("user", token, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)"#,
                    user, token, fingerprint, response.status, response.body, nowMilliseconds)
            }
            // Other processes on this database wake their long polls when this commits (on an
            // engine with notifications; on SQLite they re-read every second).
            for recipient in recipients { try db.notify(Self.eventChannel, String(recipient)) }
            return response
        }
        notifier.notify(recipients)
        return response
    }

    // MARK: - Posts

    /// `POST /v1/posts` `{"text": "...", "attachments": [...]}`: 201 with the new media. Its
    /// photos are decoded before the write transaction (``preparedPostBody(_:)``).
    func createPost(_ route: RouteRequest) async throws -> Response {
        let prepared = try await preparedPostBody(route)
        return try mutate(route) { db, viewer, token, recipients in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            var body = try prepared.get()
            try storePhotos(body.uploads, owner: viewer.id, into: &body.attachments, db)
            let post = try insertPost(
                (body.text, body.attachments), by: viewer, parent: nil, token: token, db, &recipients)
            var builder = ResponseBuilder()
            builder.add(post)
            return builder.response(
                "mutation", Self.mutation(token) { $0.rawField("media", post.json) }, status: 201)
        }
    }

    /// `POST /v1/posts/{id}/replies` `{"text": "...", "attachments": [...]}`: 201 with the reply;
    /// the parent's facts (reply count) come along. Its photos are decoded before the write
    /// transaction (``preparedPostBody(_:)``).
    func createReply(_ route: RouteRequest) async throws -> Response {
        let prepared = try await preparedPostBody(route)
        return try mutate(route) { db, viewer, token, recipients in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let parentID = try route.id("id", prefix: "m", noun: "post")
            var body = try prepared.get()
            let parent = try livePost(parentID, viewer: viewer.id, db)
            try storePhotos(body.uploads, owner: viewer.id, into: &body.attachments, db)
            let reply = try insertPost(
                (body.text, body.attachments), by: viewer, parent: parent, token: token, db, &recipients)
            var builder = ResponseBuilder()
            builder.add(reply)
            builder.add(try livePost(parentID, viewer: viewer.id, db))
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.rawField("media", reply.json)
                    $0.field("parentID", "m\(parentID)")
                }, status: 201)
        }
    }

    /// `DELETE /v1/posts/{id}`: deletes the viewer's own post (403 for another's).
    func deletePost(_ route: RouteRequest) throws -> Response {
        try mutate(route) { db, viewer, token, _ in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let id = try route.id("id", prefix: "m", noun: "post")
            let post = try livePost(id, viewer: viewer.id, db)
            guard post.author == viewer.id else {
                let owner = try account(post.author, db)
                throw APIError.forbidden(
                    "post 'm\(id)' belongs to @\(owner.handle); only its author may delete it")
            }
            try db.execute("UPDATE posts SET deleted = 1, revision = revision + 1 WHERE id = ?", id)
            try deletePhotos(of: post, db)
            var builder = ResponseBuilder()
            if let parent = post.parent {
                try db.execute(
                    "UPDATE posts SET reply_count = \(db.dialect.greatest)(reply_count - 1, 0), revision = revision + 1 WHERE id = ?",
                    parent)
                if let row = try? livePost(parent, viewer: viewer.id, db) { builder.add(row) }
            }
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.field("deleted", true)
                    $0.field("mediaID", "m\(id)")
                })
        }
    }

    // MARK: - Likes and reposts

    /// `PUT /v1/posts/{id}/like` (like) and `DELETE /v1/posts/{id}/like` (unlike): the post's
    /// updated facts; `changed` says whether this request changed anything.
    func setLike(_ route: RouteRequest, liked: Bool) throws -> Response {
        try mutate(route) { db, viewer, token, recipients in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let id = try route.id("id", prefix: "m", noun: "post")
            let post = try livePost(id, viewer: viewer.id, db)
            let changed: Bool
            if liked {
                changed =
                    try db.execute(
                        #"INSERT INTO likes ("user", post, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#,
                        viewer.id,
                        id,
                        nowMilliseconds) == 1
                if changed {
                    try db.execute(
                        "UPDATE posts SET like_count = like_count + 1, revision = revision + 1 WHERE id = ?",
                        id)
                    try recordEvent("like", for: post.author, by: viewer.id, post: id, db, &recipients)
                }
            } else {
                changed =
                    try db.execute(#"DELETE FROM likes WHERE "user" = ? AND post = ?"#, viewer.id, id) == 1
                if changed {
                    try db.execute(
                        "UPDATE posts SET like_count = \(db.dialect.greatest)(like_count - 1, 0), revision = revision + 1 WHERE id = ?",
                        id)
                }
            }
            var builder = ResponseBuilder()
            builder.add(try livePost(id, viewer: viewer.id, db))
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.field("changed", changed)
                    $0.field("liked", liked)
                    $0.field("mediaID", "m\(id)")
                })
        }
    }

    /// `PUT /v1/posts/{id}/repost` (repost) and `DELETE /v1/posts/{id}/repost` (undo the repost):
    /// the post's updated facts; `changed` says whether this request changed anything, and a
    /// repost names its feed entry (`entryID`, `r<id>`). Undoing takes the repost's row away, so
    /// its entry leaves every feed (feeds are read from the reposts table).
    func setRepost(_ route: RouteRequest, reposted: Bool) throws -> Response {
        try mutate(route) { db, viewer, token, _ in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let id = try route.id("id", prefix: "m", noun: "post")
            _ = try livePost(id, viewer: viewer.id, db)
            let changed: Bool
            var repostID: Int64?
            if reposted {
                changed =
                    try db.execute(
                        #"INSERT INTO reposts ("user", post, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"#,
                        viewer.id,
                        id,
                        nowMilliseconds) == 1
                if changed {
                    try db.execute(
                        "UPDATE posts SET repost_count = repost_count + 1, revision = revision + 1 WHERE id = ?",
                        id)
                }
                repostID =
                    try db.queryFirst(#"SELECT id FROM reposts WHERE "user" = ? AND post = ?"#, viewer.id, id)
                {
                    try $0.int64(0)
                } ?? 0
            } else {
                changed =
                    try db.execute(#"DELETE FROM reposts WHERE "user" = ? AND post = ?"#, viewer.id, id) == 1
                if changed {
                    try db.execute(
                        "UPDATE posts SET repost_count = \(db.dialect.greatest)(repost_count - 1, 0), revision = revision + 1 WHERE id = ?",
                        id)
                }
            }
            var builder = ResponseBuilder()
            builder.add(try livePost(id, viewer: viewer.id, db))
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.field("changed", changed)
                    if let repostID { $0.field("entryID", "r\(repostID)") }
                    $0.field("mediaID", "m\(id)")
                    $0.field("reposted", reposted)
                })
        }
    }

    // MARK: - Follows

    /// `PUT /v1/users/{id}/follow` (follow) and `DELETE /v1/users/{id}/follow` (unfollow): the
    /// followee's follower count and the viewer's following count after the change.
    func setFollow(_ route: RouteRequest, following: Bool) throws -> Response {
        try mutate(route) { db, viewer, token, recipients in
            guard let viewer else { throw APIError.internalError("no viewer for an authenticated mutation") }
            let id = try route.id("id", prefix: "u", noun: "user")
            let target = try account(id, db)
            guard target.id != viewer.id else {
                throw APIError.badRequest("you cannot follow yourself ('u\(id)')", code: "self_follow")
            }
            let changed: Bool
            if following {
                changed =
                    try db.execute(
                        "INSERT INTO follows (follower, followee, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        viewer.id,
                        id, nowMilliseconds) == 1
                if changed { try recordEvent("follow", for: id, by: viewer.id, post: nil, db, &recipients) }
            } else {
                changed =
                    try db.execute("DELETE FROM follows WHERE follower = ? AND followee = ?", viewer.id, id)
                    == 1
            }
            let counts = try db.queryFirst(
                "SELECT (SELECT COUNT(*) FROM follows WHERE followee = ?), (SELECT COUNT(*) FROM follows WHERE follower = ?)",
                id, viewer.id
            ) { row in (try row.int(0), try row.int(1)) }
            var builder = ResponseBuilder()
            return builder.response(
                "mutation",
                Self.mutation(token) {
                    $0.field("changed", changed)
                    $0.field("followerCount", counts?.0 ?? 0)
                    $0.field("following", following)
                    $0.field("followingCount", counts?.1 ?? 0)
                    $0.field("userID", "u\(id)")
                })
        }
    }

    // MARK: - Helpers

    /// A mutation payload: `{"clientToken": "...", ...fields}`.
    static func mutation(_ token: String?, _ fields: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        if let token { writer.field("clientToken", token) }
        fields(&writer)
        writer.endObject()
        return writer.bytes
    }

    /// A post's or reply's body made ready outside the write transaction.
    struct PostBody: Sendable {
        var text: String
        var attachments: [MediaModel.Attachment]
        var uploads: [(slot: PhotoSlot, photo: PhotoIntake)]
    }

    /// A post's body read, checked and its photos decoded before the write transaction is
    /// taken, so the writer is held only to store them, and off the HTTP server's handler
    /// threads (``PhotoDecodeGate``), so every other request, reads included, is answered
    /// meanwhile. The caller is authenticated and its client token read first: an anonymous or
    /// token-less request decodes nothing.
    ///
    /// The body's 4xx errors are returned, not thrown, so that ``mutate(_:_:)`` records them
    /// under the client token as it records every refusal (a retry fails the same way); a 401, a
    /// 400 for a missing token and a 503 when photos queue are thrown (not recorded).
    func preparedPostBody(_ route: RouteRequest) async throws -> Result<PostBody, APIError> {
        _ = try route.clientToken()
        _ = try read { db in try authenticate(route.request, db) }
        return try await preparedBody(route, checking: Self.checkedPostBody)
    }

    /// A body of text and attachments (a post's, a message's) checked by `check` and its photos
    /// decoded, as ``preparedPostBody(_:)`` does; the caller has read the client token and
    /// authenticated the request first.
    func preparedBody(
        _ route: RouteRequest,
        checking check: (RouteRequest) throws -> (text: String, attachments: CheckedAttachments)
    ) async throws -> Result<PostBody, APIError> {
        let text: String
        let checked: CheckedAttachments
        do {
            (text, checked) = try check(route)
        } catch let error as APIError {
            return .failure(error)
        }
        do {
            let (attachments, uploads) = try await preparedAttachments(checked)
            return .success(PostBody(text: text, attachments: attachments, uploads: uploads))
        } catch let error as APIError where error.status != 503 {
            return .failure(error)
        }
    }

    /// A post's body: `text` (required, may be empty when there are attachments) and
    /// `attachments` (optional), checked without decoding a photo. The text keeps
    /// ``maximumTextLength`` characters, ``PostLimits/textBytes`` bytes and
    /// ``PostLimits/combiningMarksPerCharacter`` marks a character.
    static func checkedPostBody(_ route: RouteRequest) throws -> (
        text: String, attachments: CheckedAttachments
    ) {
        let object = try route.bodyObject(maximumSize: maximumPostBodySize)
        let text = try object.read { try $0.string("text") }
        try checkText(text)
        let attachments = try checkedAttachments(object)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || !attachments.elements.isEmpty
        else {
            throw APIError.invalidBody("a post needs text or at least one attachment; both are empty")
        }
        return (text, attachments)
    }

    /// Refuses a post's or message's text over ``maximumTextLength`` characters,
    /// ``PostLimits/textBytes`` bytes or ``PostLimits/combiningMarksPerCharacter`` marks a
    /// character. Bytes first (a 20 MB text is refused without walking it), then characters,
    /// then marks.
    static func checkText(_ text: String) throws(APIError) {
        let problem = PostLimits.textProblem(in: text)
        if let problem, case .tooManyBytes = problem { throw APIError.invalidBody("text: \(problem)") }
        guard text.count <= maximumTextLength else {
            throw APIError.invalidBody(
                "text: \(text.count) characters is over the limit of \(maximumTextLength)")
        }
        if let problem { throw APIError.invalidBody("text: \(problem)") }
    }

    /// Inserts a post (a reply when `parent` is given), its reply and mention events, and bumps
    /// the parent's reply count. The client token goes into the media (so every list carries it)
    /// and into its own column.
    func insertPost(
        _ body: (text: String, attachments: [MediaModel.Attachment]), by author: Account, parent: PostRow?,
        token: String?, _ db: borrowing Connection, _ recipients: inout Set<Int64>
    ) throws -> PostRow {
        let id = try db.queryFirst("SELECT COALESCE(MAX(id), 0) + 1 FROM posts") { try $0.int64(0) } ?? 1
        let now = nowMilliseconds
        let media = Media(
            id: MediaID("m\(id)"), author: author.user,
            createdAt: Date(timeIntervalSince1970: Double(now) / 1000),
            text: body.text, attachments: body.attachments, clientToken: token)
        let json = [UInt8](media.json.serialized())
        try db.execute(
            "INSERT INTO posts (id, author, created_at, parent, root, json, client_token) VALUES (?, ?, ?, ?, ?, ?, ?)",
            id, author.id, now, parent?.id, parent.map { $0.root ?? $0.id }, json, token)
        if let parent {
            try db.execute(
                "UPDATE posts SET reply_count = reply_count + 1, revision = revision + 1 WHERE id = ?",
                parent.id)
            try recordEvent("reply", for: parent.author, by: author.id, post: id, db, &recipients)
        }
        for handle in Self.mentions(in: body.text) {
            guard
                let mentioned = try db.queryFirst(
                    "SELECT id FROM users WHERE handle = ?", handle, map: { try $0.int64(0) })
            else { continue }
            try recordEvent("mention", for: mentioned, by: author.id, post: id, db, &recipients)
        }
        return PostRow(
            id: id, json: json, facts: MediaFacts(revision: 1), author: author.id, parent: parent?.id,
            root: parent.map { $0.root ?? $0.id })
    }

    /// Writes an event for `recipient` (none when the actor is the recipient); a message event
    /// names its message.
    func recordEvent(
        _ kind: String, for recipient: Int64, by actor: Int64, post: Int64?, message: Int64? = nil,
        _ db: borrowing Connection, _ recipients: inout Set<Int64>
    ) throws {
        guard recipient != actor else { return }
        try db.execute(
            "INSERT INTO events (recipient, kind, actor, post, message, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            recipient, kind, actor, post, message, nowMilliseconds)
        recipients.insert(recipient)
    }

    /// The distinct handles mentioned as `@handle` in `text`, in order.
    static func mentions(in text: String) -> [String] {
        var handles: [String] = []
        var current: [UInt8]?
        for byte in text.utf8 + [UInt8(ascii: " ")] {
            if byte == UInt8(ascii: "@") {
                current = []
            } else if current != nil, handleBytes.contains(byte) {
                current?.append(byte)
            } else {
                if let found = current, found.count >= 2 {
                    let handle = String(decoding: found, as: UTF8.self)
                    if !handles.contains(handle) { handles.append(handle) }
                }
                current = nil
            }
        }
        return handles
    }
}
