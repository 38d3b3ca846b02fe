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
/// ```swift
/// let client = APIClient(transport: transport, bearerToken: "seed-ada")
/// let page = try await client.homeFeed(limit: 20)
/// store.apply(page.facts)
/// let liked = try await client.like("m42", clientToken: UUID().uuidString)
/// ```
public struct APIClient: Sendable {
    /// How requests travel.
    public let transport: any Transport
    /// The signed-in user's bearer token, or nil (only the accounts endpoints work then).
    public let bearerToken: String?
    /// The clock `Retry-After` dates are measured against.
    public let clock: any WallClock

    /// Makes a client.
    public init(transport: any Transport, bearerToken: String?, clock: any WallClock = SystemClock()) {
        self.transport = transport
        self.bearerToken = bearerToken
        self.clock = clock
    }

    /// The same client signed in with another token.
    public func signedIn(as bearerToken: String?) -> APIClient {
        APIClient(transport: transport, bearerToken: bearerToken, clock: clock)
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

    /// `GET /v1/users/{id}`: a profile and a page of the user's posts.
    @concurrent
    public func profile(_ id: UserID, cursor: String? = nil, limit: Int? = nil) async throws(TransportError)
        -> WireEnvelope<Profile>
    {
        try await fetch(
            Profile.self, get("/v1/users/\(Request.pathSegment(id.rawValue))", cursor: cursor, limit: limit))
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

    // MARK: Mutations

    /// `POST /v1/accounts`: makes an account; the result carries its bearer token.
    @concurrent
    public func createAccount(handle: String, displayName: String, bio: String = "", clientToken: String)
        async throws(TransportError) -> WireEnvelope<CreatedAccount>
    {
        let body = JSONValue.object([
            "handle": .string(handle), "displayName": .string(displayName), "bio": .string(bio),
        ])
        let request = Request(
            .post, "/v1/accounts",
            headers: ["Idempotency-Key": clientToken, "Content-Type": "application/json"],
            body: body.serialized())
        return try await fetch(CreatedAccount.self, request)
    }

    /// `POST /v1/sessions`: signs in as an existing account; the result carries its bearer token.
    @concurrent
    public func signIn(handle: String) async throws(TransportError) -> WireEnvelope<Session> {
        let request = Request(
            .post, "/v1/sessions", headers: ["Content-Type": "application/json"],
            body: JSONValue.object(["handle": .string(handle)]).serialized())
        return try await fetch(Session.self, request)
    }

    /// Sends a mutation with its client token: the server applies a token at most once, so a
    /// retry after a timeout is safe and returns the first attempt's response
    /// (`MutationResult.replayed`).
    @concurrent
    public func send(_ mutation: Mutation, clientToken: String) async throws(TransportError)
        -> WireEnvelope<MutationResult>
    {
        try await fetch(
            MutationResult.self, mutation.request(clientToken: clientToken, bearerToken: bearerToken))
    }

    /// `POST /v1/posts`.
    public func createPost(text: String, attachments: [MediaModel.Attachment] = [], clientToken: String)
        async throws(TransportError) -> WireEnvelope<MutationResult>
    {
        try await send(.post(text: text, attachments: attachments), clientToken: clientToken)
    }

    /// `POST /v1/posts/{id}/replies`.
    public func reply(
        to parent: MediaID, text: String, attachments: [MediaModel.Attachment] = [], clientToken: String
    ) async throws(TransportError) -> WireEnvelope<MutationResult> {
        try await send(.reply(to: parent, text: text, attachments: attachments), clientToken: clientToken)
    }

    /// `PUT /v1/posts/{id}/like`.
    public func like(_ id: MediaID, clientToken: String) async throws(TransportError) -> WireEnvelope<
        MutationResult
    > {
        try await send(.like(id), clientToken: clientToken)
    }

    /// `DELETE /v1/posts/{id}/like`.
    public func unlike(_ id: MediaID, clientToken: String) async throws(TransportError) -> WireEnvelope<
        MutationResult
    > {
        try await send(.unlike(id), clientToken: clientToken)
    }

    /// `PUT /v1/posts/{id}/repost`.
    public func repost(_ id: MediaID, clientToken: String) async throws(TransportError) -> WireEnvelope<
        MutationResult
    > {
        try await send(.repost(id), clientToken: clientToken)
    }

    /// `DELETE /v1/posts/{id}/repost`: takes the viewer's repost back (`changed` false when there
    /// was none).
    public func unrepost(_ id: MediaID, clientToken: String) async throws(TransportError) -> WireEnvelope<
        MutationResult
    > {
        try await send(.unrepost(id), clientToken: clientToken)
    }

    /// `DELETE /v1/posts/{id}` (403 for another's post).
    public func deletePost(_ id: MediaID, clientToken: String) async throws(TransportError)
        -> WireEnvelope<MutationResult>
    {
        try await send(.delete(id), clientToken: clientToken)
    }

    /// `PUT /v1/users/{id}/follow`.
    public func follow(_ id: UserID, clientToken: String) async throws(TransportError) -> WireEnvelope<
        MutationResult
    > {
        try await send(.follow(id), clientToken: clientToken)
    }

    /// `DELETE /v1/users/{id}/follow`.
    public func unfollow(_ id: UserID, clientToken: String) async throws(TransportError)
        -> WireEnvelope<MutationResult>
    {
        try await send(.unfollow(id), clientToken: clientToken)
    }

    // MARK: Plumbing

    private func get(_ path: String, cursor: String? = nil, limit: Int? = nil) -> Request {
        var query: [QueryItem] = []
        if let cursor { query.append(QueryItem("cursor", cursor)) }
        if let limit { query.append(QueryItem("limit", String(limit))) }
        var headers: Headers = [:]
        if let bearerToken { headers["Authorization"] = "Bearer \(bearerToken)" }
        return Request(.get, path, query: query, headers: headers)
    }

    /// Sends, classifies a failed status, and decodes the envelope.
    private func fetch<Payload: WirePayload>(_ type: Payload.Type, _ request: Request)
        async throws(TransportError)
        -> WireEnvelope<Payload>
    {
        let response = try await transport.send(request)
        if let error = response.error(for: request, now: clock.now) { throw error }
        var envelope: WireEnvelope<Payload>
        do {
            envelope = try WireFormat.decode(Payload.self, from: response.body)
        } catch {
            throw .decoding(
                "the \(Payload.envelopeKey) document could not be read: \(error)", status: response.status,
                request: "\(request.method) \(request.path)")
        }
        if response.headers["Idempotent-Replayed"] == "true",
            let result = envelope.payload as? MutationResult,
            let marked = result.markedReplayed() as? Payload
        {
            envelope.payload = marked
        }
        return envelope
    }
}

extension MutationResult {
    fileprivate func markedReplayed() -> MutationResult {
        var copy = self
        copy.replayed = true
        return copy
    }
}
