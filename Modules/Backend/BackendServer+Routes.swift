import Wire

extension BackendServer {
    /// Every endpoint (Backend's docs list them with bodies and responses).
    static func routes(_ core: BackendCore) -> [Route] {
        [
            Route(.get, "/healthz") { core.health($0) },
            Route(.get, "/v1/feed", cached: true) { try core.feed($0) },
            Route(.get, "/v1/posts/{id}", cached: true) { try core.post($0) },
            Route(.get, "/v1/posts/{id}/thread", cached: true) { try core.thread($0) },
            Route(.get, "/v1/users/{id}", cached: true) { try core.profile($0) },
            Route(.get, "/v1/me") { try core.me($0) },
            Route(.put, "/v1/me/profile") { try core.updateProfile($0) },
            Route(.get, "/v1/accounts") { try core.accounts($0) },
            Route(.post, "/v1/accounts") { try await core.createAccount($0) },
            Route(.post, "/v1/sessions") { try await core.createSession($0) },
            Route(.post, "/v1/sessions/renew") { try core.renewSession($0) },
            Route(.delete, "/v1/sessions/current") { try core.deleteSession($0) },
            Route(.get, "/v1/events") { try await core.events($0) },
            Route(.post, "/v1/posts") { try await core.createPost($0) },
            Route(.post, "/v1/posts/{id}/replies") { try await core.createReply($0) },
            Route(.delete, "/v1/posts/{id}") { try core.deletePost($0) },
            Route(.put, "/v1/posts/{id}/like") { try core.setLike($0, liked: true) },
            Route(.delete, "/v1/posts/{id}/like") { try core.setLike($0, liked: false) },
            Route(.put, "/v1/posts/{id}/repost") { try core.setRepost($0, reposted: true) },
            Route(.delete, "/v1/posts/{id}/repost") { try core.setRepost($0, reposted: false) },
            Route(.put, "/v1/users/{id}/follow") { try core.setFollow($0, following: true) },
            Route(.delete, "/v1/users/{id}/follow") { try core.setFollow($0, following: false) },
            Route(.get, "/v1/photos/{id}") { try core.photo($0) },
            Route(.post, "/v1/conversations") { try core.startConversation($0) },
            Route(.get, "/v1/conversations") { try core.conversations($0) },
            Route(.get, "/v1/conversations/{id}/messages") { try core.conversationMessages($0) },
            Route(.post, "/v1/conversations/{id}/messages") { try await core.sendMessage($0) },
            Route(.put, "/v1/conversations/{id}/read") { try core.markConversationRead($0) },
        ]
    }
}

extension BackendServer {
    /// The routes that read bodies up to ``maximumRequestBodySize`` (a post's photos travel base64
    /// in its JSON, and so do a message's); every other route reads at most 1 MiB.
    static let largeBodyRoutes: Set<String> = [
        "POST /v1/posts", "POST /v1/posts/{id}/replies", "POST /v1/conversations/{id}/messages",
    ]

    /// The largest body the route for `method` and `target` reads, in bytes, so that an HTTP
    /// server in front can answer 413 from a request's head instead of reading a body the route
    /// would refuse: ``maximumRequestBodySize`` for a new post, reply or message, 1 MiB for everything else
    /// (an unknown path included). O(routes) per call.
    public func maximumBodySize(for method: HTTPMethod, target: String) -> Int {
        guard let request = try? Request(method: method, target: target),
            let (route, _) = try? router.resolve(request),
            Self.largeBodyRoutes.contains("\(route.method.rawValue) \(route.pattern)")
        else { return RouteRequest.maximumBodySize }
        return Self.maximumRequestBodySize
    }
}
