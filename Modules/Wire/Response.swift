import Foundation

/// A response as both sides of the wire see it: a status, headers and a body.
///
/// A transport returns every response that arrived, whatever its status; `error(for:now:)`
/// classifies a failed one with the rules every transport shares.
public struct Response: Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code (`200`, `404`).
    public var status: Int
    /// The header fields.
    public var headers: Headers
    /// The body; empty when there is none.
    public var body: Data

    /// Makes a response.
    public init(status: Int, headers: Headers = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body (`Content-Type: application/json; charset=utf-8`).
    public static func json(_ status: Int, _ body: Data, headers: Headers = [:]) -> Response {
        var headers = headers
        headers["Content-Type"] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: body)
    }

    /// An error response with the shared JSON error body
    /// `{"error": {"code": "...", "message": "..."}}`.
    public static func error(_ status: Int, code: String, message: String, headers: Headers = [:]) -> Response
    {
        json(status, ErrorBody(code: code, message: message).encoded(), headers: headers)
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// How a failed response is classified, or nil for a 2xx.
    public var errorClass: ErrorClass? { ErrorClass(status: status) }

    /// The classified error for a failed response, or nil for a 2xx: its class, the server's
    /// error code and message when the body has the shared error shape, and the delay of a
    /// `Retry-After` header (seconds or an HTTP-date, measured from `now`).
    ///
    /// - Parameters:
    ///   - request: the request it answers, named in the message.
    ///   - now: the current date on the caller's clock; an HTTP-date `Retry-After` is measured
    ///     from it.
    public func error(for request: Request? = nil, now: Date) -> TransportError? {
        guard let errorClass else { return nil }
        let body = ErrorBody(decoding: self.body)
        let retryAfter = headers["Retry-After"].flatMap { RetryAfter.parse($0, now: now) }
        var detail = "HTTP \(status) \(HTTPStatus.reasonPhrase(status))"
        if let body { detail += " (\(body.code)): \(body.message)" }
        return TransportError(
            errorClass, detail, status: status, retryAfter: retryAfter, serverCode: body?.code,
            request: request.map { "\($0.method) \($0.path)" })
    }

    /// `200 OK, 1234 bytes`.
    public var description: String { "\(status) \(HTTPStatus.reasonPhrase(status)), \(body.count) bytes" }
}
