import Foundation

/// The JSON body of every error response: `{"error": {"code": "not_found", "message": "..."}}`.
///
/// `code` is a stable machine-readable name (`"not_found"`, `"invalid_body"`); `message` says
/// what went wrong, quoting the offending value, and how to fix it.
public struct ErrorBody: Hashable, Sendable {
    /// The stable error code.
    public var code: String
    /// The human-readable message.
    public var message: String

    /// Makes an error body.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// Reads an error body; nil when `data` is not one.
    public init?(decoding data: Data) {
        guard !data.isEmpty,
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let error = root["error"] as? [String: Any], let code = error["code"] as? String,
            let message = error["message"] as? String
        else { return nil }
        self.init(code: code, message: message)
    }

    /// The body as compact JSON with sorted keys.
    public func encoded() -> Data {
        let object: [String: Any] = ["error": ["code": code, "message": message]]
        return
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
