import Foundation
import MediaModel
import Storage
import Synchronization
import Wire

/// The backend's engine: its database, clock and event notifier, and the queries and handlers
/// the routes call (in `Routes/`).
final class BackendCore: Sendable {
    /// The connection every write (and every read inside a write) goes through.
    let database: Database
    /// Connections for the routes that only read.
    let readers: ReaderPool
    let clock: any WallClock
    let notifier = EventNotifier()
    /// The database's notification channel for new events: each payload is a recipient's id.
    static let eventChannel = "loom_events"
    /// Hears the events other processes on the database write (nil on SQLite).
    let eventListener = Mutex<(any SQLListener)?>(nil)
    /// Whether the seed accounts may sign in with the demo password.
    let demoMode: Bool
    /// How long tokens and renew tokens last.
    let sessionPolicy: BackendServer.SessionPolicy
    /// Failed sign-ins per account and per address, counted in the database.
    let signInLimiter: SignInLimiter
    /// The threads and budget uploaded photos are decoded within.
    let photoGate = PhotoDecodeGate()
    /// Pages of the read routes marked `cached`, kept until the next write.
    let pages: PageCache
    /// The line this backend's requests without a client address (sent in process) wait in at
    /// the password gate: one per backend, so a flood through one backend in a process (a test's,
    /// a tool's) never refuses the sign-ins of another.
    let inProcessLine = "in-process \(BackendCore.backendsMade.add(1, ordering: .relaxed).newValue)"
    private static let backendsMade = Atomic<Int>(0)

    init(
        database: Database, readers: ReaderPool, clock: any WallClock, demoMode: Bool,
        sessionPolicy: BackendServer.SessionPolicy
    ) {
        self.database = database
        self.readers = readers
        self.clock = clock
        self.demoMode = demoMode
        self.sessionPolicy = sessionPolicy
        self.signInLimiter = SignInLimiter(database: database)
        self.pages = PageCache(probe: ChangeProbe { try readers.openConnection() })
    }

    /// Runs a read-only `body` on a reader connection, beside other reads and the writer.
    func read<T>(_ body: (borrowing Connection) throws -> T) throws -> T {
        try readers.read(body)
    }

    /// The line at the process's password gate (`KDFGate`) a request from `address` waits in:
    /// its address, or this backend's in-process line when it has none.
    func gateLine(for address: String?) -> String { address ?? inProcessLine }

    /// The clock's time in milliseconds since 1970 (the wire's precision).
    var nowMilliseconds: Int64 { Int64((clock.now.timeIntervalSince1970 * 1000).rounded()) }

    /// The user a request's bearer token belongs to: 401 `unauthorized` without one, 401
    /// `invalid_token` for a token that is unknown or revoked, 401 `token_expired` for one past
    /// its expiry. Tokens are looked up by their SHA-256 (the database holds no token).
    func authenticate(_ request: Request, _ db: borrowing Connection) throws -> Account {
        try authenticatedSession(request, db).account
    }

    /// The user a route's bearer token belongs to (see `authenticate(_:_:)`), noting the
    /// session's expiry on the route for the page cache.
    func authenticate(_ route: RouteRequest, _ db: borrowing Connection) throws -> Account {
        let (_, account, expiresAt) = try authenticatedSession(route.request, db)
        route.session?.expiresAt.withLock { $0 = expiresAt }
        return account
    }

    /// The session a request's bearer token belongs to, its account and the token's expiry (in
    /// milliseconds since 1970; see `authenticate`); with `acceptExpired`, a token past its
    /// expiry is accepted too (signing out).
    func authenticatedSession(_ request: Request, _ db: borrowing Connection, acceptExpired: Bool = false)
        throws -> (session: Int64, account: Account, expiresAt: Int64)
    {
        guard let token = request.bearerToken else {
            throw APIError.unauthorized(
                "missing bearer token; send 'Authorization: Bearer <token>' with a token from "
                    + "POST /v1/sessions (sign in) or POST /v1/accounts")
        }
        guard
            let found = try db.queryFirst(
                """
                SELECT u.id, u.handle, u.display_name, u.bio, s.id, s.expires_at, s.revoked_at IS NOT NULL
                FROM sessions s JOIN users u ON u.id = s.user WHERE s.token_hash = ?
                """, SecretToken.hash(token),
                map: { row in (try Account(row), try row.int64(4), try row.int64(5), try row.bool(6)) }),
            !found.3
        else {
            throw APIError.unauthorized(
                "bearer token '\(token.prefix(8))…' is not valid (unknown, or revoked by signing out or "
                    + "renewing); sign in again with POST /v1/sessions", code: "invalid_token")
        }
        guard acceptExpired || found.2 > nowMilliseconds else {
            throw APIError.unauthorized(
                "bearer token '\(token.prefix(8))…' expired; renew it with POST /v1/sessions/renew, or "
                    + "sign in again", code: "token_expired")
        }
        return (found.1, found.0, found.2)
    }

    /// A post that exists and is not deleted, or 404.
    func livePost(_ id: Int64, viewer: Int64, _ db: borrowing Connection) throws -> PostRow {
        guard
            let post = try db.queryFirst(
                "SELECT \(PostRow.columns("p", withOwnership: true)) FROM posts p WHERE p.id = ?2",
                viewer, id, map: { row in try PostRow(row, at: 0, withOwnership: true) })
                ?? nil,
            !post.deleted
        else {
            throw APIError.notFound("no post with id 'm\(id)'; it may have been deleted")
        }
        return post
    }

    /// The user with an id, or 404.
    func account(_ id: Int64, _ db: borrowing Connection) throws -> Account {
        guard
            let account = try db.queryFirst(
                "SELECT id, handle, display_name, bio FROM users WHERE id = ?", id, map: Account.init)
        else {
            throw APIError.notFound("no user with id 'u\(id)'")
        }
        return account
    }
}

/// A user account as the backend stores it.
struct Account: Sendable {
    var id: Int64
    var handle: String
    var displayName: String
    var bio: String

    var user: User { User(id: UserID("u\(id)"), handle: handle, displayName: displayName, bio: bio) }
}

extension Account {
    /// Reads `id, handle, display_name, bio`.
    init(_ row: borrowing RowCursor) throws {
        self.init(
            id: try row.int64(0), handle: try row.string(1), displayName: try row.string(2),
            bio: try row.string(3))
    }
}

/// A post's stored media JSON and its shared facts as one viewer sees them.
struct PostRow: Sendable {
    var id: Int64
    var json: [UInt8]
    var facts: MediaFacts
    var author: Int64 = 0
    var parent: Int64?
    var root: Int64?
    var deleted = false

    /// How the backend computes a fact for a post aliased `alias`, the viewer's id bound as `?1`.
    enum FactColumn: Equatable {
        /// A column of `posts` (kept up to date by the routes that change it).
        case stored(String)
        /// Whether the viewer has a row for the post in a table with `user` and `post` columns.
        case viewerHasRow(in: String)
        /// A fact this backend does not keep: it is always its default (and so never written
        /// when the wire form writes it only when set).
        case notKept

        /// The SQL expression, or nil for `notKept`.
        func sql(_ alias: String) -> String? {
            switch self {
            case .stored(let column): "\(alias).\(column)"
            case .viewerHasRow(let table):
                "EXISTS(SELECT 1 FROM \(table) fact_row WHERE fact_row.user = ?1 AND fact_row.post = \(alias).id)"
            case .notKept: nil
            }
        }
    }

    /// How the backend computes each fact of `MediaFacts.fields`, by its wire name. A fact added
    /// to MediaFacts without a line here fails BackendTests' `everyFact_hasABackendColumn`.
    static let factColumns: [String: FactColumn] = [
        "likeCount": .stored("like_count"),
        "viewerLiked": .viewerHasRow(in: "likes"),
        "replyCount": .stored("reply_count"),
        "repostCount": .stored("repost_count"),
        "caption": .notKept,
        "revision": .stored("revision"),
        "viewerReposted": .viewerHasRow(in: "reposts"),
    ]

    /// The facts a post row selects, in `MediaFacts.fields` order, with their SQL for an alias.
    static let selectedFacts: [(field: MediaFacts.Field, column: FactColumn)] = MediaFacts.fields.compactMap {
        field in
        guard let column = factColumns[field.name], column != .notKept else { return nil }
        return (field, column)
    }

    /// The columns a post row reads, in the order they are selected: the id, the media JSON, the
    /// facts (`selectedFacts`), then only `withOwnership` the author, parent, root and deleted
    /// flag. The SQL (`columns`) and the reads (`init(_:at:withOwnership:)`) both follow this
    /// order, so a fact added to `factColumns` is selected and read at the same place and cannot
    /// shift another column.
    static func columns(_ alias: String, withOwnership: Bool = false) -> String {
        var columns = ["\(alias).id", "\(alias).json"]
        columns += selectedFacts.compactMap { $0.column.sql(alias) }
        if withOwnership {
            columns += ["\(alias).author", "\(alias).parent", "\(alias).root", "\(alias).deleted"]
        }
        return columns.joined(separator: ", ")
    }

    /// How many columns `columns` selects without ownership (rows selected side by side are this
    /// many apart).
    static let columnCount = 2 + selectedFacts.count

    var mediaID: String { "m\(id)" }

    /// The index of the media JSON of a post whose `columns` start at `offset`.
    static func jsonColumn(at offset: Int) -> Int { offset + 1 }
}

extension PostRow {
    /// Reads a post whose `columns` start at `offset`, or nil when its id is NULL (an outer join
    /// found none). Without `readingJSON` its `json` is left empty, for a caller that splices
    /// the column where SQLite holds it (`jsonColumn(at:)`).
    init?(_ row: borrowing RowCursor, at offset: Int, withOwnership: Bool = false, readingJSON: Bool = true)
        throws
    {
        guard !(try row.isNull(offset)) else { return nil }
        id = try row.int64(offset)
        json = readingJSON ? try row.bytes(Self.jsonColumn(at: offset)) : []
        var facts = MediaFacts()
        var column = offset + 2
        for (field, _) in Self.selectedFacts {
            switch field.kind {
            case .count: field.set(.count(try row.int(column)), in: &facts)
            case .flag: field.set(.flag(try row.bool(column)), in: &facts)
            case .text: field.set(.text(try row.isNull(column) ? nil : try row.string(column)), in: &facts)
            case .revision: field.set(.revision(try row.int64(column)), in: &facts)
            }
            column += 1
        }
        self.facts = facts
        if withOwnership {
            author = try row.int64(column)
            parent = try row.isNull(column + 1) ? nil : try row.int64(column + 1)
            root = try row.isNull(column + 2) ? nil : try row.int64(column + 2)
            deleted = try row.bool(column + 3)
        }
    }
}

/// Builds a versioned wire document around a payload, collecting the shared facts of every
/// post the payload mentions: `{"version":1,"<key>":...,"facts":{"m1":{...}}}`.
struct ResponseBuilder {
    private var facts: JSONWriter
    private var seen: Set<Int64> = []

    /// A builder sized for the facts of about `expectedPosts` posts (about 110 bytes each), so
    /// that a page's facts are written without growing their buffer.
    init(expectedPosts: Int = 4) {
        facts = JSONWriter(capacity: 16 + expectedPosts * 128)
        seen.reserveCapacity(expectedPosts)
        facts.beginObject()
    }

    /// Adds a post's facts (once per post), written as `MediaFacts.fields` describes them.
    mutating func add(_ post: PostRow) {
        guard seen.insert(post.id).inserted else { return }
        facts.key(UInt8(ascii: "m"), post.id)
        facts.value { post.facts.writeJSON(into: &$0) }
    }

    /// The document: the payload under `key`, the facts, and the version.
    mutating func document(_ key: String, _ payload: [UInt8]) -> Data {
        document(key, payloadCapacity: payload.count) { $0.raw(payload) }
    }

    /// The document with its payload written by `writePayload` straight into the document's one
    /// buffer (sized for the facts and `payloadCapacity` bytes), so a large payload (a feed page)
    /// is never copied from a buffer of its own. `writePayload` writes exactly one JSON value.
    mutating func document(
        _ key: String, payloadCapacity: Int, _ writePayload: (inout JSONWriter) throws -> Void
    ) rethrows -> Data {
        facts.endObject()
        var document = JSONWriter(capacity: payloadCapacity + facts.bytes.count + 64)
        document.beginObject()
        if !seen.isEmpty { document.rawField(literal: "facts", facts.bytes) }
        document.key(key)
        try writePayload(&document)
        document.field(literal: "version", WireFormat.currentVersion)
        document.endObject()
        return document.data()
    }

    /// A JSON response with the document.
    mutating func response(_ key: String, _ payload: [UInt8], status: Int = 200) -> Response {
        .json(status, document(key, payload))
    }
}
