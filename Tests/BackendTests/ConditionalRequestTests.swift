import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// Entity tags: a GET answered 200 with JSON carries an `ETag` of what it shows this viewer, and
/// `If-None-Match` with it gets a 304 with no body while nothing the page shows has changed. The
/// rules for the feed: a like on a post in the page, a new post by an account the viewer follows,
/// a follow, and a new name of an author in the page each change it; a like on a post the page
/// does not show, or a post by an account the viewer does not follow, do not.
@Suite struct ConditionalRequestTests {
    static func tag(_ client: TestClient, _ path: String = "/v1/feed") async -> String? {
        await client.get(path).headers["ETag"]
    }

    static func conditional(_ client: TestClient, _ path: String, _ tag: String) async -> Response {
        var headers: Headers = ["If-None-Match": tag]
        if let token = client.token { headers["Authorization"] = "Bearer \(token)" }
        return await client.server.handle(Request(.get, path, headers: headers))
    }

    @Test func anUnchangedFeed_answers304WithNoBody_andTheSameTag() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let first = await ada.get("/v1/feed")
        let tag = try #require(first.headers["ETag"])
        #expect(first.status == 200 && tag.hasPrefix("\"f"))
        #expect(await Self.tag(ada) == tag)

        let again = await Self.conditional(ada, "/v1/feed", tag)
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["ETag"] == tag)
        // A list of tags, one of them this one, and a stale one alone
        #expect(await Self.conditional(ada, "/v1/feed", "\"x\", \(tag)").status == 304)
        // HTTP's optional whitespace is spaces and tabs; a weak form of the tag matches too.
        #expect(await Self.conditional(ada, "/v1/feed", "\"x\",\t\(tag)\t").status == 304)
        #expect(await Self.conditional(ada, "/v1/feed", "W/\(tag)").status == 304)
        #expect(await Self.conditional(ada, "/v1/feed", " * ").status == 304)
        #expect(await Self.conditional(ada, "/v1/feed", "\"f0000000000000000\"").status == 200)
    }

    @Test func aLikeOnAPostInThePage_changesTheTag_andOneOnAPostElsewhereDoesNot() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let before = try #require(await Self.tag(ada))

        // Another account likes a post ada's page does not show: the tag holds
        let hidden = try #require(
            try server.database.queryFirst(
                """
                SELECT p.id FROM posts p WHERE p.deleted = 0 AND p.author NOT IN
                    (SELECT followee FROM follows WHERE follower = 1) AND p.author <> 1 ORDER BY p.id LIMIT 1
                """
            ) { try $0.int64(0) })
        #expect(
            await TestClient(server: server).as("grace").send(.put, "/v1/posts/m\(hidden)/like", key: "k1")
                .status == 200)
        #expect(await Self.tag(ada) == before)

        // Grace likes the first post of ada's page: the tag changes
        let shown = try #require(
            await ada.get("/v1/feed").json["page", "entries", 0, "media", "id"].stringValue)
        #expect(
            await TestClient(server: server).as("grace").send(.put, "/v1/posts/\(shown)/like", key: "k2")
                .status == 200)
        let after = try #require(await Self.tag(ada))
        #expect(after != before)
        #expect(await Self.conditional(ada, "/v1/feed", before).status == 200)
    }

    @Test func aNewPostByAFollowedAccount_changesTheTag_andOneByAStrangerDoesNot() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let followed = try #require(
            try server.database.queryFirst(
                "SELECT u.handle FROM follows f JOIN users u ON u.id = f.followee WHERE f.follower = 1 LIMIT 1"
            ) { try $0.string(0) })
        let stranger = try #require(
            try server.database.queryFirst(
                """
                SELECT handle FROM users WHERE id <> 1 AND id NOT IN (SELECT followee FROM follows WHERE follower = 1)
                LIMIT 1
                """
            ) { try $0.string(0) })
        let before = try #require(await Self.tag(ada))

        let strangers = await ada.as(stranger).send(
            .post, "/v1/posts", body: #"{"text": "not for ada"}"#, key: "s1")
        #expect(strangers.status == 201)
        #expect(await Self.tag(ada) == before)

        let friends = await ada.as(followed).send(
            .post, "/v1/posts", body: #"{"text": "for ada"}"#, key: "f1")
        #expect(friends.status == 201)
        #expect(await Self.tag(ada) != before)
    }

    @Test func aFollow_andANewNameOfAnAuthorInThePage_eachChangeTheTag() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let stranger = try #require(
            try server.database.queryFirst(
                """
                SELECT id FROM users WHERE id <> 1 AND id NOT IN (SELECT followee FROM follows WHERE follower = 1)
                  AND EXISTS (SELECT 1 FROM posts WHERE author = users.id AND deleted = 0)
                LIMIT 1
                """
            ) { try $0.int64(0) })
        // (a stranger's new post is not on ada's page; once she follows them, it is)
        let handle = try #require(
            try server.database.queryFirst("SELECT handle FROM users WHERE id = ?", stranger) {
                try $0.string(0)
            })
        #expect(
            await ada.as(handle).send(.post, "/v1/posts", body: #"{"text": "hello"}"#, key: "p1").status
                == 201)
        let before = try #require(await Self.tag(ada))
        #expect(await ada.send(.put, "/v1/users/u\(stranger)/follow", key: "follow-1").status == 200)
        let followed = try #require(await Self.tag(ada))
        #expect(followed != before)

        let author = try #require(
            await ada.get("/v1/feed").json["page", "entries", 0, "media", "author", "handle"].stringValue)
        let renamed = await ada.as(author).send(
            .put, "/v1/me/profile", body: #"{"displayName": "Someone New"}"#, key: UUID().uuidString)
        #expect(renamed.status == 200)
        #expect(await Self.tag(ada) != followed)
    }

    @Test func anotherViewer_getsATagOfTheirOwn() async throws {
        let server = try BackendFixture.fresh()
        let ada = try #require(await Self.tag(TestClient(server: server)))
        let grace = try #require(await Self.tag(TestClient(server: server).as("grace")))
        #expect(ada != grace)
        // and ada's tag gets grace no 304
        #expect(await Self.conditional(TestClient(server: server).as("grace"), "/v1/feed", ada).status == 200)
    }

    /// A thread, a profile and the account list carry a tag too (a hash of what they answer), and
    /// a like on the thread's post changes the thread's.
    @Test(arguments: ["/v1/posts/m1/thread", "/v1/users/u2", "/v1/me", "/v1/accounts"])
    func otherPages_carryATag_andAnswer304WhileUnchanged(path: String) async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let tag = try #require(await Self.tag(ada, path))
        #expect(tag.hasPrefix("\"b"))
        let again = await Self.conditional(ada, path, tag)
        #expect(again.status == 304 && again.body.isEmpty)
        guard path.hasSuffix("/thread") else { return }
        #expect(await ada.as("grace").send(.put, "/v1/posts/m1/like", key: "t1").status == 200)
        #expect(await Self.conditional(ada, path, tag).status == 200)
    }

    /// The event stream's long poll never answers 304: each answer is what came since a cursor.
    @Test func theEventStream_carriesNoTag() async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).get("/v1/events", ["wait": "0"])
        #expect(response.status == 200)
        #expect(response.headers["ETag"] == nil)
    }
}
