import Wire

/// A request's head as read off the socket, checked and ready to become a `Request` once its
/// body has arrived.
struct RequestHead: Sendable {
    /// The method, as sent.
    var method: HTTPMethod
    /// The request target, as sent (`/v1/feed?limit=20`).
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields, in order.
    var headers: Headers
    /// The body's length (`Content-Length`, 0 when absent).
    var contentLength: Int
    /// Whether the client wants the connection kept open after the response.
    var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue` and waits for a go-ahead before the body.
    var expectsContinue: Bool

    /// Whether the response carries no body (HEAD).
    var isHead: Bool { method == .head }
}
