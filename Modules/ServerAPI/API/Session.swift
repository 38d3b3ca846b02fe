import Foundation
import MediaModel

/// A signed-in session as `POST /v1/sessions` and `POST /v1/sessions/renew` return it: the
/// account, its bearer token and when that expires, and the renew token that gets a new pair
/// before or after it does.
///
/// Times are milliseconds since 1970 on the wire, like `createdAt`. Every field is required: a
/// server that sends no renew token is not one this client can keep signed in.
public struct Session: WirePayload {
    /// The envelope key: `"session"`.
    public static let envelopeKey = "session"

    /// The signed-in user.
    public var user: User
    /// The bearer token to send (`tok_` and 64 hex digits).
    public var token: String
    /// When the server stops accepting `token` (401 `token_expired` after it).
    public var expiresAt: Date
    /// The token that renews the pair once (`ren_` and 64 hex digits): sent to
    /// `POST /v1/sessions/renew`, never as a bearer token.
    public var renewToken: String
    /// When the server stops accepting `renewToken`; after it, the person signs in again.
    public var renewExpiresAt: Date

    /// Makes a session.
    public init(user: User, token: String, expiresAt: Date, renewToken: String, renewExpiresAt: Date) {
        self.user = user
        self.token = token
        self.expiresAt = expiresAt
        self.renewToken = renewToken
        self.renewExpiresAt = renewExpiresAt
    }

    /// Decodes `{"user": {...}, "token": "...", "expiresAt": 1764000000000, "renewToken": "...",
    /// "renewExpiresAt": 1766600000000}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        try self.init(sessionFieldsOf: object)
    }

    init(sessionFieldsOf object: WireObject) throws(WireFormatError) {
        let times: ClosedRange<Int64> = 0...Int64.max / 2
        self.init(
            user: try object.decode(User.self, "user"), token: try object.string("token"),
            expiresAt: Date(wireMilliseconds: try object.int64("expiresAt", in: times)),
            renewToken: try object.string("renewToken"),
            renewExpiresAt: Date(wireMilliseconds: try object.int64("renewExpiresAt", in: times)))
    }

    /// The wire form.
    public var json: JSONValue { .object(fields) }

    var fields: [String: JSONValue] {
        [
            "user": user.json, "token": .string(token), "expiresAt": .int(expiresAt.wireMilliseconds),
            "renewToken": .string(renewToken), "renewExpiresAt": .int(renewExpiresAt.wireMilliseconds),
        ]
    }
}
