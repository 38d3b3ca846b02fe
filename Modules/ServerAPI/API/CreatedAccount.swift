import MediaModel

/// A new account as `POST /v1/accounts` returns it: the user and its bearer token.
public struct CreatedAccount: WirePayload {
    /// The envelope key: `"account"`.
    public static let envelopeKey = "account"

    /// The new user.
    public var user: User
    /// The bearer token to sign in with.
    public var token: String
    /// The client token the request carried, echoed.
    public var clientToken: String?

    /// Makes a created account.
    public init(user: User, token: String, clientToken: String? = nil) {
        self.user = user
        self.token = token
        self.clientToken = clientToken
    }

    /// Decodes `{"user": {...}, "token": "...", "clientToken": "..."}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            user: try object.decode(User.self, "user"), token: try object.string("token"),
            clientToken: try object.optionalString("clientToken"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["user": user.json, "token": .string(token)]
        if let clientToken { fields["clientToken"] = .string(clientToken) }
        return .object(fields)
    }
}
