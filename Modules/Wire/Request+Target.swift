import Foundation

/// A request target that cannot be read: what is wrong, quoting it.
public struct RequestTargetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the target, quoting it.
    public let message: String

    /// The message.
    public var description: String { message }
}

extension Request {
    /// `value` percent-encoded for use as one path segment (`"a/b c"` becomes `"a%2Fb%20c"`).
    public static func pathSegment(_ value: String) -> String { PercentEncoding.encode(value) }

    /// The request target as an HTTP request line writes it: the path, then `?` and the query
    /// items percent-encoded (`/v1/feed?cursor=a%20b&limit=20`).
    public var target: String {
        guard !query.isEmpty else { return path }
        let items = query.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
        return path + "?" + items.joined(separator: "&")
    }

    /// Reads a request from its method and an origin-form target (`/v1/feed?limit=20`), as an
    /// HTTP server receives it. A `+` in the query stands for a space.
    ///
    /// - Throws: `RequestTargetError` when the target does not start with `/` or holds a
    ///   malformed percent escape.
    public init(method: HTTPMethod, target: String, headers: Headers = [:], body: Data = Data())
        throws(RequestTargetError)
    {
        guard target.hasPrefix("/") else {
            throw RequestTargetError(
                message: "request target '\(target)' does not start with '/'; send an origin-form target "
                    + "such as '/v1/feed?limit=20'")
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard PercentEncoding.decode(path) != nil else {
            throw RequestTargetError(message: "request path '\(path)' holds a malformed percent escape")
        }
        var items: [QueryItem] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let rawName = halves[0].replacingOccurrences(of: "+", with: " ")
                let rawValue = halves.count == 2 ? halves[1].replacingOccurrences(of: "+", with: " ") : ""
                guard let name = PercentEncoding.decode(rawName), let value = PercentEncoding.decode(rawValue)
                else {
                    throw RequestTargetError(
                        message: "query item '\(pair)' in '\(target)' holds a malformed percent escape")
                }
                items.append(QueryItem(name, value))
            }
        }
        self.init(method, path, query: items, headers: headers, body: body)
    }
}
