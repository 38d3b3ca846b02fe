import Foundation
import MediaModel

/// A new account as `POST /v1/accounts` returns it: a ``Session`` for it (the person is signed
/// in at once) and the client token the request carried.
public struct CreatedAccount: WirePayload {
    /// The envelope key: `"account"`.
    public static let envelopeKey = "account"

    /// The new account's session: its user, bearer token and renew token.
    public var session: Session
    /// The client token the request carried, echoed.
    public var clientToken: String?

    /// Makes a created account.
    public init(session: Session, clientToken: String? = nil) {
        self.session = session
        self.clientToken = clientToken
    }

    /// The new user.
    public var user: User { session.user }
    /// The bearer token to sign in with.
    public var token: String { session.token }

    /// Decodes the session object's fields plus `"clientToken"`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        self.init(
            session: try Session(sessionFieldsOf: object),
            clientToken: try object.optionalString("clientToken"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields = session.fields
        if let clientToken { fields["clientToken"] = .string(clientToken) }
        return .object(fields)
    }
}
