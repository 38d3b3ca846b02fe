import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// `GET /v1/accounts?q=&limit=`: finding accounts by handle or name, handles that start with the
/// text first, then names with a word that starts with it.
@Suite struct AccountSearchTests {
    /// Makes an account as onboarding does.
    static func create(_ client: TestClient, handle: String, displayName: String) async throws {
        var anonymous = client
        anonymous.token = nil
        let body =
            "{\"handle\": \"\(handle)\", \"displayName\": \"\(displayName)\", \"password\": \"correct horse\"}"
        let response = await anonymous.send(.post, "/v1/accounts", body: body, key: "signup-\(handle)")
        try #require(response.status == 201, "\(response.text)")
    }

    /// The handles of a search's answer, in order.
    static func handles(_ response: Response) -> [String] {
        response.json["accounts", "items"].array.compactMap { $0["user", "handle"].stringValue }
    }

    @Test func search_listsHandleMatchesFirst_thenNameWordMatches_eachByHandle() async throws {
        // Given an account whose name, not handle, starts with "ka"
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        try await Self.create(ada, handle: "reef_lee", displayName: "Kai Reef")

        // When ada searches for "Ka"
        let response = await ada.get("/v1/accounts", ["q": "Ka"])

        // Then the handles starting with it come first, by handle, then the name match
        #expect(response.status == 200, "\(response.text)")
        #expect(Self.handles(response) == ["karen", "katherine", "kathleen", "reef_lee"])
    }

    @Test func search_carriesTheCountsOfTheList_andWhetherTheViewerFollows() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        var anonymous = ada
        anonymous.token = nil
        let all = await anonymous.get("/v1/accounts").json["accounts", "items"].array
        let followed = Set(
            try server.database.query(
                "SELECT u.handle FROM follows f JOIN users u ON u.id = f.followee WHERE f.follower = 1"
            ) { try $0.string(0) })

        let items = await ada.get("/v1/accounts", ["q": "ka"]).json["accounts", "items"].array

        #expect(items.count == 3)
        for item in items {
            let handle = try #require(item["user", "handle"].stringValue)
            let listed = try #require(all.first { $0["user", "handle"].stringValue == handle })
            #expect(item["followerCount"] == listed["followerCount"], "\(handle)")
            #expect(item["followingCount"] == listed["followingCount"], "\(handle)")
            #expect(item["postCount"] == listed["postCount"], "\(handle)")
            #expect(item["viewerFollows"].bool == followed.contains(handle), "\(handle)")
        }
        // Without a token the search works too, and says nothing of following.
        let anonymousItems = await anonymous.get("/v1/accounts", ["q": "ka"]).json["accounts", "items"].array
        #expect(anonymousItems.count == 3)
        #expect(anonymousItems.allSatisfy { $0["viewerFollows"] == .null })
    }

    @Test func limit_isOneToFifty_twentyByDefault() async throws {
        // Given 55 accounts whose handles start with "zz"
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        for index in 0..<55 {
            let handle = "zz" + String(index).leftPaddedWithZero
            try await Self.create(ada, handle: handle, displayName: "Zed \(index)")
        }
        let expected = (0..<55).map { "zz" + String($0).leftPaddedWithZero }

        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "zz", "limit": "1"])) == ["zz00"])
        #expect(
            Self.handles(await ada.get("/v1/accounts", ["q": "zz", "limit": "50"]))
                == Array(expected.prefix(50)))
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "zz"])) == Array(expected.prefix(20)))
        for limit in ["0", "51", "-1", "ten"] {
            let refused = await ada.get("/v1/accounts", ["q": "zz", "limit": limit])
            #expect(refused.status == 400, "limit \(limit)")
            #expect(refused.errorCode == "invalid_parameter")
            #expect(
                refused.errorMessage
                    == "query parameter 'limit': expected a whole number from 1 to 50, found '\(limit)'")
        }
    }

    @Test func textOutsideTheHandleRule_searchesNames_orFindsNothing() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        try await Self.create(ada, handle: "mob", displayName: "Mary O'Brien")

        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "o'b"])) == ["mob"])
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "@kath"])) == ["katherine", "kathleen"])
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "mary o"])) == ["mob"])
        let nothing = await ada.get("/v1/accounts", ["q": "a-b!"])
        #expect(nothing.status == 200)
        #expect(nothing.json["accounts", "items"].array.isEmpty)
        let long = await ada.get("/v1/accounts", ["q": String(repeating: "a", count: 101)])
        #expect(long.status == 400)
        #expect(long.errorMessage == "query parameter 'q': at most 100 characters, found 101")
    }

    @Test func unicodeNames_matchWhateverTheCase() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        try await Self.create(ada, handle: "zoe_a", displayName: "Zoë Ångström")
        try await Self.create(ada, handle: "kenji", displayName: "健二 Ōta")

        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "ÅNG"])) == ["zoe_a"])
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "zoë"])) == ["zoe_a"])
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "ō"])) == ["kenji"])
        #expect(Self.handles(await ada.get("/v1/accounts", ["q": "健"])) == ["kenji"])
        let items = await ada.get("/v1/accounts", ["q": "ång"]).json["accounts", "items"].array
        #expect(items.first?["user", "displayName"].stringValue == "Zoë Ångström")
    }

    @Test func anEmptyQuery_listsEveryAccountAsBefore() async throws {
        let server = try BackendFixture.fresh()
        var anonymous = TestClient(server: server)
        anonymous.token = nil
        let before = await anonymous.get("/v1/accounts")
        for query in ["", "  "] {
            let response = await anonymous.get("/v1/accounts", ["q": query])
            #expect(response.status == 200)
            #expect(response.body == before.body, "q '\(query)'")
        }
        #expect(Self.handles(before).count == BackendSeed.userCount)
    }

    @Test func aBearerTokenThatIsNotValid_is401() async throws {
        let server = try BackendFixture.fresh()
        var stranger = TestClient(server: server)
        stranger.token = "tok_nobody"
        let response = await stranger.get("/v1/accounts", ["q": "ka"])
        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_token")
    }
}

extension String {
    /// Two digits: "7" is "07".
    fileprivate var leftPaddedWithZero: String { count < 2 ? "0" + self : self }
}
