import MediaModel

/// The accounts `GET /v1/accounts` lists, each with its counts: every account for onboarding, or
/// the ones a search (`q`) matches, best first.
public struct AccountList: WirePayload {
    /// The envelope key: `"accounts"`.
    public static let envelopeKey = "accounts"

    /// The accounts: by id, or best match first for a search.
    public var accounts: [AccountSummary]

    /// Makes a list.
    public init(accounts: [AccountSummary]) { self.accounts = accounts }

    /// Decodes `{"items": [...]}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        _ = try object.value("items")
        self.init(accounts: try object.decodeArray(AccountSummary.self, "items"))
    }

    /// The wire form.
    public var json: JSONValue { ["items": .array(accounts.map(\.json))] }
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

    /// Makes a summary.
    public init(
        user: User, followingCount: Int, followerCount: Int, postCount: Int, viewerFollows: Bool? = nil
    ) {
        self.user = user
        self.followingCount = followingCount
        self.followerCount = followerCount
        self.postCount = postCount
        self.viewerFollows = viewerFollows
    }

    /// Decodes a summary; counts default to 0, and `viewerFollows` to nil.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let counts: ClosedRange<Int64> = 0...Int64(Int32.max)
        self.init(
            user: try object.decode(User.self, "user"),
            followingCount: try object.optionalInt("followingCount", in: counts) ?? 0,
            followerCount: try object.optionalInt("followerCount", in: counts) ?? 0,
            postCount: try object.optionalInt("postCount", in: counts) ?? 0,
            viewerFollows: try object.optionalBool("viewerFollows"))
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "user": user.json, "followingCount": .int(Int64(followingCount)),
            "followerCount": .int(Int64(followerCount)), "postCount": .int(Int64(postCount)),
        ]
        if let viewerFollows { fields["viewerFollows"] = .bool(viewerFollows) }
        return .object(fields)
    }
}
