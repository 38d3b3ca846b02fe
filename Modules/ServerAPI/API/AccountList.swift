import MediaModel

/// The accounts `GET /v1/accounts` lists, each with its counts: every account for onboarding, or
/// the ones a search (`q`) matches, best first.
public struct AccountList: WirePayload {
    /// The envelope key: `"accounts"`.
    public static let envelopeKey = "accounts"

    /// The accounts: by id, or best match first for a search.
    public var accounts: [AccountSummary]
    /// Whether the server runs in demo mode (its seed accounts sign in with
    /// `DemoAccounts.password`); nil when it did not say (a search, or an older server).
    public var demoMode: Bool?

    /// Makes a list.
    public init(accounts: [AccountSummary], demoMode: Bool? = nil) {
        self.accounts = accounts
        self.demoMode = demoMode
    }

    /// Decodes `{"items": [...], "demo": true}` (`demo` is optional).
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        _ = try object.value("items")
        self.init(
            accounts: try object.decodeArray(AccountSummary.self, "items"),
            demoMode: try object.optionalBool("demo"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = ["items": .array(accounts.map(\.json))]
        if let demoMode { fields["demo"] = .bool(demoMode) }
        return .object(fields)
    }
}

/// One account in `AccountList`: the user and how connected they are.
public struct AccountSummary: WireCodable, Hashable {
    /// The user.
    public var user: User
    /// How many accounts they follow.
    public var followingCount: Int
    /// How many accounts follow them.
    public var followerCount: Int
    /// How many posts they have.
    public var postCount: Int
    /// Whether the viewer follows them: nil when the list was fetched without signing in (the
    /// onboarding list always is).
    public var viewerFollows: Bool?
    /// Whether this is a demo account on a server in demo mode: it signs in with
    /// `DemoAccounts.password`, so onboarding does not ask for one.
    public var isDemo: Bool

    /// Makes a summary.
    public init(
        user: User, followingCount: Int, followerCount: Int, postCount: Int, viewerFollows: Bool? = nil,
        isDemo: Bool = false
    ) {
        self.user = user
        self.followingCount = followingCount
        self.followerCount = followerCount
        self.postCount = postCount
        self.viewerFollows = viewerFollows
        self.isDemo = isDemo
    }

    /// Decodes a summary; counts default to 0, `viewerFollows` to nil and `demo` to false.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
        self.init(
            user: try object.decode(User.self, "user"),
            followingCount: try object.optionalInt("followingCount", in: counts) ?? 0,
            followerCount: try object.optionalInt("followerCount", in: counts) ?? 0,
            postCount: try object.optionalInt("postCount", in: counts) ?? 0,
            viewerFollows: try object.optionalBool("viewerFollows"),
            isDemo: try object.optionalBool("demo") ?? false)
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "user": user.json, "followingCount": .int(Int64(followingCount)),
            "followerCount": .int(Int64(followerCount)), "postCount": .int(Int64(postCount)),
        ]
        if let viewerFollows { fields["viewerFollows"] = .bool(viewerFollows) }
        if isDemo { fields["demo"] = .bool(true) }
        return .object(fields)
    }
}
