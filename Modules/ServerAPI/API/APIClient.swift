import Foundation
import MediaModel
import Wire

/// A typed client for every backend endpoint, over any `Transport` (in process or HTTP).
///
/// Methods are `@concurrent`: requests are sent and responses decoded on the concurrent pool,
/// never on the caller's actor (the UI's main actor included). Every failure is a
/// `TransportError` classified the same way for every transport (offline, timeout, 401, 403,
/// 404, 409, 429 with its Retry-After, 5xx, decoding), so callers tell retryable from
/// permanent with `isRetryable`.
///
/// Authenticated requests carry the ``credentials``' current token; an expired one is renewed
/// and the request sent again once, without the caller seeing it (see ``Credentials``).
///
/// ```swift
/// let anonymous = APIClient(transport: transport, credentials: nil)
/// let session = try await anonymous.signIn(handle: "ada", password: DemoAccounts.password).payload
/// let client = anonymous.signedIn(with: Credentials(session: session))
/// let page = try await client.homeFeed(limit: 20)
/// store.apply(page.facts)
/// ```
public struct APIClient: Sendable {
    /// How requests travel.
    public let transport: any Transport
    /// The signed-in account's credentials (shared with every copy of this client), or nil:
    /// only the accounts and sessions endpoints work then.
    public let credentials: Credentials?
    /// The clock `Retry-After` dates and token expiry are measured against.
    public let clock: any WallClock

    /// Makes a client signed in with `credentials`, or anonymous.
    public init(transport: any Transport, credentials: Credentials?, clock: any WallClock = SystemClock()) {
        self.transport = transport
        self.credentials = credentials
        self.clock = clock
    }

    /// Makes a client sending a bare bearer token that never renews (tests and tools that minted
    /// one), or anonymous.
    public init(transport: any Transport, bearerToken: String?, clock: any WallClock = SystemClock()) {
        self.init(transport: transport, credentials: bearerToken.map(Credentials.init(token:)), clock: clock)
    }

    /// The bearer token requests are sent with now, or nil when anonymous.
    public var bearerToken: String? { credentials?.token }

    /// The same client with other credentials (nil: anonymous).
    public func signedIn(with credentials: Credentials?) -> APIClient {
        APIClient(transport: transport, credentials: credentials, clock: clock)
    }

    /// The same client sending a bare bearer token that never renews (nil: anonymous).
    public func signedIn(as bearerToken: String?) -> APIClient {
        signedIn(with: bearerToken.map(Credentials.init(token:)))
    }

    // MARK: Reads

    /// `GET /v1/feed`: a page of the home feed, newest first, and the facts of its media.
    ///
    /// - Parameters:
    ///   - cursor: the previous page's `nextCursor`, or nil for the first page.
    ///   - limit: entries per page, 1 to 100 (the server's default is 20).
    @concurrent
    public func homeFeed(cursor: String? = nil, limit: Int? = nil) async throws(TransportError)
        -> FeedPageEnvelope
    {
        try await fetch(FeedPage.self, get("/v1/feed", cursor: cursor, limit: limit))
    }

    /// `GET /v1/feed` with `If-None-Match: etag`: the page as `homeFeed` reads it (with its new
    /// `etag`), or nil when the server answers 304, the page being what it was when `etag` came
    /// with it. A refresh that changes nothing costs no body and no merge.
    @concurrent
    public func homeFeed(cursor: String? = nil, limit: Int? = nil, ifNoneMatch etag: String)
        async throws(TransportError) -> FeedPageEnvelope?
    {
        var request = get("/v1/feed", cursor: cursor, limit: limit)
        request.headers["If-None-Match"] = etag
        return try await fetchIfChanged(FeedPage.self, request)
    }

    /// `GET /v1/posts/{id}`: one media and its facts.
    @concurrent
    public func post(_ id: MediaID) async throws(TransportError) -> MediaEnvelope {
        try await fetch(Media.self, get("/v1/posts/\(Request.pathSegment(id.rawValue))"))
    }

    /// `GET /v1/posts/{id}/thread`: the post's ancestors, the post, and a page of replies.
    @concurrent
    public func thread(_ id: MediaID, cursor: String? = nil, limit: Int? = nil) async throws(TransportError)
        -> WireEnvelope<ThreadPage>
    {
        try await fetch(
            ThreadPage.self,
            get("/v1/posts/\(Request.pathSegment(id.rawValue))/thread", cursor: cursor, limit: limit))
    }

    /// `thread(_:cursor:limit:)` with `If-None-Match: etag`: nil when the server answers 304, the
    /// thread being what it was when `etag` came with it.
    @concurrent
    public func thread(_ id: MediaID, cursor: String? = nil, limit: Int? = nil, ifNoneMatch etag: String)
        async throws(TransportError) -> WireEnvelope<ThreadPage>?
    {
        var request = get(
            "/v1/posts/\(Request.pathSegment(id.rawValue))/thread", cursor: cursor, limit: limit)
        request.headers["If-None-Match"] = etag
        return try await fetchIfChanged(ThreadPage.self, request)
    }

    /// `GET /v1/users/{id}`: a profile and a page of the user's posts.
    @concurrent
    public func profile(_ id: UserID, cursor: String? = nil, limit: Int? = nil) async throws(TransportError)
        -> WireEnvelope<Profile>
    {
        try await fetch(
            Profile.self, get("/v1/users/\(Request.pathSegment(id.rawValue))", cursor: cursor, limit: limit))
    }

    /// `profile(_:cursor:limit:)`, or `me(cursor:limit:)` when `id` is nil, with
    /// `If-None-Match: etag`: nil when the server answers 304, the profile being what it was
    /// when `etag` came with it.
    @concurrent
    public func profile(_ id: UserID?, cursor: String? = nil, limit: Int? = nil, ifNoneMatch etag: String)
        async throws(TransportError) -> WireEnvelope<Profile>?
    {
        let path = id.map { "/v1/users/\(Request.pathSegment($0.rawValue))" } ?? "/v1/me"
        var request = get(path, cursor: cursor, limit: limit)
        request.headers["If-None-Match"] = etag
        return try await fetchIfChanged(Profile.self, request)
    }

    /// `GET /v1/me`: the signed-in user's own profile.
    @concurrent
    public func me(cursor: String? = nil, limit: Int? = nil) async throws(TransportError) -> WireEnvelope<
        Profile
    > {
        try await fetch(Profile.self, get("/v1/me", cursor: cursor, limit: limit))
    }

    /// `GET /v1/accounts`: every account with its counts (no sign-in needed), for onboarding.
    @concurrent
    public func accounts() async throws(TransportError) -> WireEnvelope<AccountList> {
        try await fetch(AccountList.self, get("/v1/accounts"))
    }

    /// `GET /v1/accounts?q=&limit=`: the accounts whose handle starts with `text`, then those
    /// with a word of their name that does (MediaModel's `UserMatch`), with their counts and,
    /// when signed in, whether the viewer follows each. Text of only spaces lists every account,
    /// as ``accounts()`` does.
    ///
    /// - Parameters:
    ///   - text: what the person typed (a leading `@` and case do not matter); at most 100
    ///     characters.
    ///   - limit: the most accounts to return, 1 to 50, or nil for the server's default (20).
    @concurrent
    public func searchAccounts(_ text: String, limit: Int? = nil) async throws(TransportError)
        -> WireEnvelope<AccountList>
    {
        var request = get("/v1/accounts", limit: limit)
        request.query.append(QueryItem("q", text))
        return try await fetch(AccountList.self, request)
    }

    /// `GET /v1/events`: the viewer's events after `cursor`, oldest first.
    ///
    /// - Parameters:
    ///   - cursor: a previous page's `nextCursor`; nil reads from the beginning, `"latest"` skips
    ///     to the newest event.
    ///   - limit: the most events to return (1 to 100), or nil for the server's default.
    ///   - wait: seconds (0 to 30) to hold the request open when nothing is new (long poll).
    @concurrent
    public func events(after cursor: String? = nil, limit: Int? = nil, wait: Int? = nil)
        async throws(TransportError)
        -> WireEnvelope<EventPage>
    {
        var request = get("/v1/events", cursor: cursor, limit: limit)
        if let wait { request.query.append(QueryItem("wait", String(wait))) }
        return try await fetch(EventPage.self, request)
    }

    /// `GET /v1/photos/{id}?width=W`: the encoded bytes (a JPEG) of the smallest stored variant
    /// of photo `id` at least `width` pixels wide, else the largest.
    ///
    /// Failures are classified like every other call (offline, timeout, 404 for an unknown id,
    /// 400 for a width outside 1...16,384).
    ///
    /// - Parameters:
    ///   - id: the stored photo's id (`Attachment.Photo.id`, `"p12"`).
    ///   - width: the fewest pixels across the caller needs.
    @concurrent
    public func photo(_ id: String, width: Int) async throws(TransportError) -> Data {
        let request = Request(
            .get, "/v1/photos/\(Request.pathSegment(id))", query: [QueryItem("width", String(width))])
        let response = try await send(request, authenticated: true)
        if let error = response.error(for: request, now: clock.now) { throw error }
        return response.body
    }

    // MARK: Direct messages

    /// `POST /v1/conversations`: the conversation of the viewer and `members` (the viewer need
    /// not be listed), found when there is one, else made: one conversation per set of members.
    ///
    /// Fails 400 `too_many_members` over `MessageLimits.membersPerConversation`, 400
    /// `too_few_members` without another account, 404 for an account that does not exist.
    @concurrent
    public func startConversation(with members: [UserID]) async throws(TransportError)
        -> WireEnvelope<Conversation>
    {
        let body = JSONValue.object(["members": .array(members.map { .string($0.rawValue) })])
        let request = Request(
            .post, "/v1/conversations", headers: ["Content-Type": "application/json"], body: body.serialized()
        )
        return try await fetch(Conversation.self, request)
    }

    /// `GET /v1/conversations`: a page of the viewer's conversations, the one with the newest
    /// message first, each with its last message and the viewer's unread count.
    ///
    /// - Parameters:
    ///   - cursor: the previous page's `nextCursor`, or nil for the first page.
    ///   - limit: conversations per page, 1 to 100 (the server's default is 20).
    @concurrent
    public func conversations(cursor: String? = nil, limit: Int? = nil) async throws(TransportError)
        -> WireEnvelope<ConversationList>
    {
        try await fetch(ConversationList.self, get("/v1/conversations", cursor: cursor, limit: limit))
    }

    /// `GET /v1/conversations/{id}/messages`: a page of a conversation's messages, oldest first,
    /// with the conversation. Without a cursor, the newest; with `before` (a page's
    /// `olderCursor`) the ones just older; with `after` (a page's `newerCursor`) the ones just
    /// newer, an empty page when none came. 403 for a conversation the viewer is not in.
    ///
    /// ```swift
    /// var page = try await client.messages(in: id).payload           // the newest
    /// let older = try await client.messages(in: id, before: page.olderCursor).payload
    /// let arrived = try await client.messages(in: id, after: page.newerCursor).payload
    /// ```
    @concurrent
    public func messages(
        in conversation: ConversationID, before: String? = nil, after: String? = nil, limit: Int? = nil
    ) async throws(TransportError) -> WireEnvelope<MessagePage> {
        var request = get(
            "/v1/conversations/\(Request.pathSegment(conversation.rawValue))/messages", limit: limit)
        if let before { request.query.append(QueryItem("before", before)) }
        if let after { request.query.append(QueryItem("after", after)) }
        return try await fetch(MessagePage.self, request)
    }

    /// `PUT /v1/conversations/{id}/read`: the viewer has read the conversation up to `message`.
    /// The position never moves back, so marking an older message is harmless; the answer is
    /// the position and unread count after it.
    @concurrent
    public func markRead(_ conversation: ConversationID, upTo message: MessageID) async throws(TransportError)
        -> WireEnvelope<ReadPosition>
    {
        let request = Request(
            .put, "/v1/conversations/\(Request.pathSegment(conversation.rawValue))/read",
            headers: ["Content-Type": "application/json"],
            body: JSONValue.object(["messageID": .string(message.rawValue)]).serialized())
        return try await fetch(ReadPosition.self, request)
    }

    // MARK: Mutations

    /// `POST /v1/accounts`: makes an account protected by `password` (8 to 200 characters); the
    /// result carries a session for it. Sent without a bearer token.
    ///
    /// A retry with the same `clientToken` and password gets a new session for the same account;
    /// another password gets 409.
    @concurrent
    public func createAccount(
        handle: String, displayName: String, bio: String = "", password: String, clientToken: String
    ) async throws(TransportError) -> WireEnvelope<CreatedAccount> {
        let body = JSONValue.object([
            "handle": .string(handle), "displayName": .string(displayName), "bio": .string(bio),
            "password": .string(password),
        ])
        let request = Request(
            .post, "/v1/accounts",
            headers: ["Idempotency-Key": clientToken, "Content-Type": "application/json"],
            body: body.serialized())
        return try await fetch(CreatedAccount.self, request, authenticated: false)
    }

    /// `POST /v1/sessions`: signs in as an existing account with its password; the result is a
    /// new session. Sent without a bearer token.
    ///
    /// Fails 401 `invalid_credentials` for a wrong password, 403 `demo_disabled` for a demo
    /// account on a server not in demo mode, 404 for no such handle, and 429
    /// `too_many_attempts` (with its Retry-After) after too many failures.
    @concurrent
    public func signIn(handle: String, password: String) async throws(TransportError) -> WireEnvelope<Session>
    {
        let request = Request(
            .post, "/v1/sessions", headers: ["Content-Type": "application/json"],
            body: JSONValue.object(["handle": .string(handle), "password": .string(password)]).serialized())
        return try await fetch(Session.self, request, authenticated: false)
    }

    /// `POST /v1/sessions/renew`: trades a renew token for a new pair (the old pair stops
    /// working). Sent without a bearer token. ``Credentials`` call it for you; 401
    /// `invalid_renew_token` means the person has to sign in again.
    @concurrent
    public func renewSession(renewToken: String) async throws(TransportError) -> WireEnvelope<Session> {
        let request = Request(
            .post, "/v1/sessions/renew", headers: ["Content-Type": "application/json"],
            body: JSONValue.object(["renewToken": .string(renewToken)]).serialized())
        return try await fetch(Session.self, request, authenticated: false)
    }

    /// `DELETE /v1/sessions/current`: signs out, so the server no longer accepts this session's
    /// token or renew token. The credentials are not renewed for it: a token the server already
    /// refuses is as good as signed out, and so succeeds.
    @concurrent
    public func signOut() async throws(TransportError) {
        guard let token = credentials?.token else { return }
        let request = Request(.delete, "/v1/sessions/current", headers: ["Authorization": "Bearer \(token)"])
        let response = try await transport.send(request)
        if let error = response.error(for: request, now: clock.now), error.errorClass != .unauthorized {
            throw error
        }
    }

    /// Sends `request` as every endpoint here is sent (the current bearer token, renewed when
    /// needed, a failed status classified) and decodes `type`'s envelope: how other modules send
    /// requests this client has no method for (the mutation manager's changes).
    ///
    /// `replayed` is whether the server answered from its record of an earlier attempt with the
    /// same `Idempotency-Key` (the `Idempotent-Replayed` header).
    @concurrent
    public func perform<Payload: WirePayload>(_ request: Request, decoding type: Payload.Type)
        async throws(TransportError) -> (envelope: WireEnvelope<Payload>, replayed: Bool)
    {
        try await fetchReplayed(type, request)
    }

    // MARK: Plumbing

    private func get(_ path: String, cursor: String? = nil, limit: Int? = nil) -> Request {
        var query: [QueryItem] = []
        if let cursor { query.append(QueryItem("cursor", cursor)) }
        if let limit { query.append(QueryItem("limit", String(limit))) }
        return Request(.get, path, query: query)
    }

    /// Sends, classifies a failed status, and decodes the envelope.
    ///
    /// An authenticated request (the default, when there are credentials) carries the current
    /// bearer token, renewed first when it is about to expire; a 401 `token_expired` or
    /// `invalid_token` renews it (once, for all requests that saw it) and sends the request
    /// again, once.
    private func fetch<Payload: WirePayload>(
        _ type: Payload.Type, _ request: Request, authenticated: Bool = true
    ) async throws(TransportError) -> WireEnvelope<Payload> {
        try await fetchReplayed(type, request, authenticated: authenticated).envelope
    }

    /// `fetch` of a conditional request: nil when the server answers 304 Not Modified.
    private func fetchIfChanged<Payload: WirePayload>(_ type: Payload.Type, _ request: Request)
        async throws(TransportError) -> WireEnvelope<Payload>?
    {
        let response = try await send(request, authenticated: true)
        guard response.status != 304 else { return nil }
        return try decode(type, response, for: request)
    }

    /// `fetch`, and whether the server replayed an earlier answer (`Idempotent-Replayed`).
    private func fetchReplayed<Payload: WirePayload>(
        _ type: Payload.Type, _ request: Request, authenticated: Bool = true
    ) async throws(TransportError) -> (envelope: WireEnvelope<Payload>, replayed: Bool) {
        let response = try await send(request, authenticated: authenticated)
        return (try decode(type, response, for: request), response.headers["Idempotent-Replayed"] == "true")
    }

    /// The envelope a response carries, with its `ETag`; the response's error when it failed.
    private func decode<Payload: WirePayload>(
        _ type: Payload.Type, _ response: Response, for request: Request
    )
        throws(TransportError) -> WireEnvelope<Payload>
    {
        if let error = response.error(for: request, now: clock.now) { throw error }
        var envelope: WireEnvelope<Payload>
        do {
            envelope = try WireFormat.decode(Payload.self, from: response.body)
        } catch {
            throw .decoding(
                "the \(Payload.envelopeKey) document could not be read: \(error)", status: response.status,
                request: "\(request.method) \(request.path)")
        }
        envelope.etag = response.headers["ETag"]
        return envelope
    }
}

extension APIClient {
    /// The server codes of a 401 that a renewed token may cure.
    static let renewableRefusals: Set<String> = ["token_expired", "invalid_token"]

    fileprivate func send(_ request: Request, authenticated: Bool) async throws(TransportError) -> Response {
        guard authenticated, let credentials else { return try await transport.send(request) }
        let name = "\(request.method) \(request.path)"
        let renew: @Sendable (String) async throws(TransportError) -> Session = {
            [self] renewToken throws(TransportError) in
            try await renewSession(renewToken: renewToken).payload
        }
        let token = try await credentials.tokenToSend(at: clock.now, request: name, renew: renew)
        let response = try await transport.send(request.bearing(token))
        guard credentials.canRenew, let refusal = response.error(for: request, now: clock.now),
            refusal.errorClass == .unauthorized, let code = refusal.serverCode,
            Self.renewableRefusals.contains(code)
        else { return response }
        let renewed = try await credentials.renew(
            replacing: token, at: clock.now, request: name, using: renew)
        return try await transport.send(request.bearing(renewed))
    }
}

extension Request {
    /// The request with `token` as its bearer token.
    fileprivate func bearing(_ token: String) -> Request {
        var copy = self
        copy.headers["Authorization"] = "Bearer \(token)"
        return copy
    }
}
