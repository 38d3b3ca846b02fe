import Foundation

/// A request as both sides of the wire see it: method, path, query, headers and a body.
///
/// The same value travels in process (`EmbeddedTransport`) and over HTTP, so handlers never
/// know which carried it.
///
/// ```swift
/// let request = Request(.get, "/v1/feed", query: [QueryItem("limit", "20")],
///                       headers: ["Authorization": "Bearer tok_1f0c"])
/// ```
public struct Request: Hashable, Sendable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The path, starting with `/`, without the query (`"/v1/posts/m42/like"`). Segments may be
    /// percent-encoded; `pathSegments` decodes them.
    public var path: String
    /// The query items, in order, decoded.
    public var query: [QueryItem]
    /// The header fields.
    public var headers: Headers
    /// The body; empty when there is none.
    public var body: Data
    /// The address the request came from, without its port (`"127.0.0.1"`), as the HTTP server
    /// saw its peer; nil in process (the embedded transport), where every request is local.
    /// Servers use it to limit what one address may do (failed sign-ins).
    public var clientAddress: String?

    /// Makes a request.
    public init(
        _ method: HTTPMethod, _ path: String, query: [QueryItem] = [], headers: Headers = [:],
        body: Data = Data(), clientAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The value of the first query item named `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The path's segments, percent-decoded, without empty ones (`["v1", "posts", "m42"]`).
    public var pathSegments: [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map {
            PercentEncoding.decode(String($0)) ?? String($0)
        }
    }

    /// The token of an `Authorization: Bearer <token>` header, or nil when there is none or it
    /// uses another scheme.
    public var bearerToken: String? {
        guard let value = headers["Authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        var token = parts[1]
        while let first = token.first, first == " " || first == "\t" { token.removeFirst() }
        while let last = token.last, last == " " || last == "\t" { token.removeLast() }
        return token.isEmpty ? nil : String(token)
    }

    /// `GET /v1/feed?limit=20`: the method and target, for messages and logs.
    public var description: String { "\(method) \(target)" }
}
