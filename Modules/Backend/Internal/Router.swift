import Wire

/// One endpoint: a method, a path pattern (`/v1/posts/{id}/like`) and its handler.
struct Route: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let method: HTTPMethod
    let pattern: String
    let segments: [Segment]
    /// Whether `PageCache` keeps its 200 answers: a GET whose answer is a function of the
    /// database, the viewer its bearer token names (through `authenticate(_:_:)` on the
    /// `RouteRequest`, which it must call) and the path and query, and nothing else.
    let cached: Bool
    let handler: @Sendable (RouteRequest) async throws -> Response

    init(
        _ method: HTTPMethod, _ pattern: String, cached: Bool = false,
        _ handler: @escaping @Sendable (RouteRequest) async throws -> Response
    ) {
        self.method = method
        self.pattern = pattern
        self.cached = cached
        self.segments = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        self.handler = handler
    }

    /// The path parameters when `path` fits the pattern.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal): if literal != part { return nil }
            case .parameter(let name): parameters[name] = part
            }
        }
        return parameters
    }
}

/// Finds the route for a request: 404 when no pattern fits the path, 405 (with `Allow`) when
/// one does but not for this method. Only a path's one canonical spelling fits: an empty segment
/// (`//v1/posts`, `/v1/posts/`) or a percent-encoded character (`/v1/users/u%31`) is 404, so
/// no alias of a path reaches a handler.
///
/// Complexity: O(routes × segments) per request; there are a few dozen routes.
struct Router: Sendable {
    let routes: [Route]

    func resolve(_ request: Request) throws(APIError) -> (Route, [String: String]) {
        let path = request.pathSegments
        guard request.path == "/" + path.joined(separator: "/") else {
            throw .notFound(
                "no endpoint at '\(request.method) \(request.path.prefix(200))': a path has no empty segments "
                    + "and nothing percent-encoded; Backend's docs list the routes (Modules/Backend/Backend.docc)"
            )
        }
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.match(path) else { continue }
            if route.method == request.method { return (route, parameters) }
            allowed.append(route.method.rawValue)
        }
        if allowed.isEmpty {
            throw .notFound(
                "no endpoint at '\(request.method) \(request.path)'; Backend's docs list the routes (Modules/Backend/Backend.docc)"
            )
        }
        throw APIError(
            status: 405, code: "method_not_allowed",
            message:
                "'\(request.path)' does not accept \(request.method); use \(allowed.joined(separator: " or "))",
            headers: ["Allow": allowed.joined(separator: ", ")])
    }
}
