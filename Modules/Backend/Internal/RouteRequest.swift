import Foundation
import MediaModel
import Synchronization
import Wire

/// A request on its way through a handler: the request, its path parameters, and readers for
/// query parameters, ids and the JSON body that throw the right 4xx.
struct RouteRequest: Sendable {
    let request: Request
    let parameters: [String: String]
    /// Where `BackendCore.authenticate(_:_:)` notes the session's expiry, for a route whose
    /// answer the page cache keeps (nil for the others).
    var session: SessionNote? = nil

    /// The expiry of the session a cached route's answer was made for.
    final class SessionNote: Sendable {
        let expiresAt = Mutex<Int64?>(nil)
    }

    /// The largest body the backend reads.
    static let maximumBodySize = 1 << 20

    /// A required path parameter (the router guarantees patterns' parameters exist).
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The numeric id in a path parameter written `<prefix><digits>` (`m42`), or 404. Only that
    /// spelling: no sign and no leading zeros (`m+42` and `m042` are not `m42`).
    func id(_ name: String, prefix: String, noun: String) throws(APIError) -> Int64 {
        let text = parameter(name)
        guard text.hasPrefix(prefix), let id = Int64(text.dropFirst(prefix.count)), id > 0,
            text == prefix + String(id)
        else {
            throw .notFound("no \(noun) with id '\(text.prefix(60))'")
        }
        return id
    }

    /// The `limit` query parameter: 1 through `maximum`, `defaultValue` when absent.
    func limit(default defaultValue: Int = 20, maximum: Int = 100) throws(APIError) -> Int {
        guard let text = request.queryValue("limit") else { return defaultValue }
        guard let value = Int(text), (1...maximum).contains(value) else {
            throw .invalidParameter(
                "limit", "expected a whole number from 1 to \(maximum), found '\(text.prefix(40))'")
        }
        return value
    }

    /// The `cursor` query parameter of a list, or nil for the first page.
    func cursor(list: Character, count: Int) throws(APIError) -> Cursor? {
        guard let text = request.queryValue("cursor"), !text.isEmpty else { return nil }
        return try Cursor.decode(text, list: list, count: count)
    }

    /// The body as a JSON object, with 400 naming the problem (413 when it is too large); a key
    /// twice in one object is a 400 too.
    func bodyObject(maximumSize: Int = maximumBodySize) throws(APIError) -> WireObject {
        guard request.body.count <= maximumSize else {
            throw APIError(
                status: 413, code: "body_too_large",
                message: "the body is \(request.body.count) bytes, over the limit of \(maximumSize)")
        }
        guard !request.body.isEmpty else {
            throw .invalidBody("the body is empty; send a JSON object")
        }
        if let problem = DuplicateKeyScanner.encodingProblem(in: request.body) {
            throw .invalidBody("body: \(problem)")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: request.body)
        } catch {
            throw .invalidBody("body: \(error)")
        }
        if let key = DuplicateKeyScanner.firstDuplicate(in: request.body) {
            throw .invalidBody(
                "body: the key '\(key.prefix(40))' appears more than once in one object; send each key once")
        }
        do {
            return try WireObject(value, at: .root)
        } catch {
            throw .invalidBody("body: \(error)")
        }
    }

    /// The client token of a mutation: the `Idempotency-Key` header, 1 to 128 visible ASCII
    /// characters.
    func clientToken() throws(APIError) -> String {
        guard let token = request.headers["Idempotency-Key"], !token.isEmpty else {
            throw .badRequest(
                "missing Idempotency-Key header; every mutation carries a client-made token so a retry "
                    + "is applied at most once", code: "missing_client_token")
        }
        guard token.utf8.count <= 128, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest(
                "Idempotency-Key '\(token.prefix(40))' must be 1 to 128 visible ASCII characters",
                code: "invalid_client_token")
        }
        return token
    }
}

extension WireObject {
    /// Rethrows a wire-format problem as a 400 naming the field.
    func read<T>(_ body: (WireObject) throws -> T) throws(APIError) -> T {
        do {
            return try body(self)
        } catch let error as WireFormatError {
            throw .invalidBody(error.description)
        } catch {
            throw .invalidBody("\(error)")
        }
    }
}
