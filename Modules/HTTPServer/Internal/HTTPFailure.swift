import Wire

/// A request the server answers itself, without the handler: a status, the JSON error body's
/// code and message. After one, the connection is closed (its framing can no longer be trusted).
struct HTTPFailure: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    /// Fields to add (`Retry-After`).
    var headers: Headers

    init(_ status: Int, _ code: String, _ message: String, headers: Headers = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The response: the shared JSON error body.
    var response: Response { .error(status, code: code, message: message, headers: headers) }

    static func badRequest(_ code: String, _ message: String) -> HTTPFailure {
        HTTPFailure(400, code, message)
    }
}
