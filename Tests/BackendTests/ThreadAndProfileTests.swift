import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct ThreadAndProfileTests {
    @Test func thread_listsAncestorsRootFirstThePostAndItsReplies() async throws {
        // Given the deepest reply of the seed
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let deepest = try #require(
            try server.database.queryFirst(
                """
                WITH RECURSIVE chain (id, depth) AS (
                    SELECT id, 0 FROM posts WHERE parent IS NULL
                    UNION ALL SELECT p.id, c.depth + 1 FROM posts p JOIN chain c ON p.parent = c.id
                ) SELECT id, depth FROM chain ORDER BY depth DESC, id LIMIT 1
                """
            ) { (try $0.int64(0), try $0.int(1)) })
        #expect(deepest.1 >= 4, "the seed's threads should be several replies deep")

        // When its thread is read
        let response = await client.get("/v1/posts/m\(deepest.0)/thread")
        #expect(response.status == 200)
        let thread = response.json["thread"]

        // Then the ancestors run from the root down to the parent
        let ancestors = thread["ancestors"].array.compactMap { $0["id"].stringValue }
        #expect(ancestors.count == deepest.1)
        var expected: [String] = []
        var next: Int64? = deepest.0
        while let id = next,
            let parent = try server.database.queryFirst(
                "SELECT parent FROM posts WHERE id = ?", id,
                map: { row in try row.isNull(0) ? nil : try row.int64(0) }) ?? nil
        {
            expected.insert("m\(parent)", at: 0)
            next = parent
        }
        #expect(ancestors == expected)
        #expect(thread["post", "id"].stringValue == "m\(deepest.0)")
        #expect(response.json["facts", "m\(deepest.0)", "likeCount"].int != nil)
    }

    @Test func threadReplies_pageOldestFirstWithoutRepeats() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let busiest = try #require(
            try server.database.queryFirst(
                "SELECT parent, COUNT(*) AS n FROM posts WHERE parent IS NOT NULL GROUP BY parent ORDER BY n DESC, parent LIMIT 1"
            ) { (try $0.int64(0), try $0.int(1)) })
        var replies: [String] = []
        var cursor: String?
        repeat {
            var query = ["limit": "2"]
            if let cursor { query["cursor"] = cursor }
            let response = await client.get("/v1/posts/m\(busiest.0)/thread", query)
            replies += response.json["thread", "replies", "entries"].array.compactMap {
                $0["media", "id"].stringValue
            }
            cursor = response.json["thread", "replies", "nextCursor"].stringValue
        } while cursor != nil
        let expected = try server.database.query(
            "SELECT id FROM posts WHERE parent = ? ORDER BY created_at, id", busiest.0
        ) { "m\(try $0.int64(0))" }
        #expect(busiest.1 >= 3)
        #expect(replies == expected)
    }

    @Test func profile_countsFollowsAndPostsAndPagesTheirPosts() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let followee = try Expectations.followees(server)[0]
        let response = await client.get("/v1/users/u\(followee)", ["limit": "100"])
        #expect(response.status == 200)
        let profile = response.json["profile"]
        #expect(profile["user", "handle"].stringValue == Expectations.handle(followee))
        #expect(profile["viewerFollows"].bool == true)
        #expect(profile["isViewer"].bool == false)
        #expect(
            profile["followerCount"].int
                == (try Expectations.scalar(
                    server, "SELECT COUNT(*) FROM follows WHERE followee = ?", followee)))
        #expect(
            profile["followingCount"].int
                == (try Expectations.scalar(
                    server, "SELECT COUNT(*) FROM follows WHERE follower = ?", followee)))
        let posts = profile["posts", "entries"].array
        #expect(
            profile["postCount"].int
                == (try Expectations.scalar(server, "SELECT COUNT(*) FROM posts WHERE author = ?", followee)))
        #expect(posts.allSatisfy { $0["media", "author", "id"].stringValue == "u\(followee)" })
        #expect(posts.count == min(100, profile["postCount"].int ?? 0))
    }

    @Test func me_isTheViewersProfile() async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).get("/v1/me")
        #expect(response.json["profile", "user", "handle"].stringValue == "ada")
        #expect(response.json["profile", "isViewer"].bool == true)
    }

    @Test func accounts_listEveryUserWithFollowingCountsWithoutAToken() async throws {
        let server = try BackendFixture.fresh()
        var anonymous = TestClient(server: server)
        anonymous.token = nil
        let response = await anonymous.get("/v1/accounts")
        #expect(response.status == 200)
        let items = response.json["accounts", "items"].array
        #expect(items.count == BackendSeed.userCount)
        #expect(items.first?["user", "handle"].stringValue == "ada")
        #expect(items.first?["followingCount"].int == 20)
    }

    @Test func createdAccount_getsATokenThatWorks() async throws {
        let server = try BackendFixture.fresh()
        var anonymous = TestClient(server: server)
        anonymous.token = nil
        let signup = #"{"handle": "zoe", "displayName": "Zoe Quinn", "password": "zoe's secret"}"#
        let created = await anonymous.send(.post, "/v1/accounts", body: signup, key: "signup-1")
        #expect(created.status == 201)
        let token = try #require(created.json["account", "token"].stringValue)
        #expect(created.json["account", "user", "handle"].stringValue == "zoe")
        var zoe = anonymous
        zoe.token = token
        #expect(await zoe.get("/v1/me").json["profile", "user", "displayName"].stringValue == "Zoe Quinn")
        // A retry of the same signup (same handle and password) gets a new session for the same
        // account; another signup of the handle is a 409.
        let retry = await anonymous.send(.post, "/v1/accounts", body: signup, key: "signup-1")
        #expect(retry.status == 201)
        #expect(retry.json["account", "user"] == created.json["account", "user"])
        let second = try #require(retry.json["account", "token"].stringValue)
        #expect(second != token)
        zoe.token = second
        #expect(await zoe.get("/v1/me").json["profile", "user", "handle"].stringValue == "zoe")
        let taken = await anonymous.send(
            .post, "/v1/accounts",
            body: #"{"handle": "zoe", "displayName": "Other", "password": "another one"}"#,
            key: "signup-2")
        #expect(taken.status == 409)
        #expect(taken.errorCode == "handle_taken")
    }
}
