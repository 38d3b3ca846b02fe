import MediaModel

/// A signed-in session as `POST /v1/sessions` returns it: the account and its bearer token.
public struct Session: WirePayload {
    /// The envelope key: `"session"`.
    public static let envelopeKey = "session"

    /// The signed-in user.
    public var user: User
    /// The bearer token to send.
    public var token: String

    /// Makes a session.
    public init(user: User, token: String) {
        self.user = user
        self.token = token
    }

    /// Decodes `{"user": {...}, "token": "..."}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(user: try object.decode(User.self, "user"), token: try object.string("token"))
    }

    /// The wire form.
    public var json: JSONValue {
        .object(["user": user.json, "token": .string(token)])
    }
}
