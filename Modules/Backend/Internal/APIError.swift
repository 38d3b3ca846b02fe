import Wire

/// A failed request as the backend answers it: a 4xx status, a stable code and a message that
/// says what was wrong, quoting it, and how to fix it.
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: Headers = [:]

    var response: Response { .error(status, code: code, message: message, headers: headers) }

    static func badRequest(_ message: String, code: String = "bad_request") -> APIError {
        APIError(status: 400, code: code, message: message)
    }

    static func invalidBody(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_body", message: message)
    }

    static func invalidParameter(_ name: String, _ message: String) -> APIError {
        APIError(status: 400, code: "invalid_parameter", message: "query parameter '\(name)': \(message)")
    }

    static func unauthorized(_ message: String, code: String = "unauthorized") -> APIError {
        APIError(
            status: 401, code: code, message: message,
            headers: ["WWW-Authenticate": "Bearer realm=\"backend\""])
    }

    static func forbidden(_ message: String, code: String = "forbidden") -> APIError {
        APIError(status: 403, code: code, message: message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: 404, code: "not_found", message: message)
    }

    static func conflict(_ message: String, code: String = "conflict") -> APIError {
        APIError(status: 409, code: code, message: message)
    }

    static func internalError(_ message: String) -> APIError {
        APIError(status: 500, code: "internal", message: message)
    }
}
