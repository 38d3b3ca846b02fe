@_spi(Testing) import Backend
import Foundation
import MediaModel
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

/// The page cache (issue 36): an unchanged page is answered without its queries, and never after
/// a write that may change it, wherever the write came from: this server, another server on the
/// same SQLite file or on the same PostgreSQL database. A token signed out or expired is refused
/// with its page cached.
@Suite struct PageCacheTests {
    /// The like count the first entry of a feed page shows, and that entry's media id.
    static func firstEntry(_ page: Response) throws -> (id: String, likes: Int) {
        let id = try #require(
            page.json["page", "entries", 0, "media", "id"].stringValue, "\(page.text.prefix(300))")
        let likes = try #require(page.json["facts", id, "likeCount"].int, "\(page.text.prefix(300))")
        return (id, likes)
    }

    @Test func anUnchangedPage_isAnsweredFromTheCache_withTheSameBytesAndTag() async throws {
        let server = try BackendFixture.fresh()
        defer { server.close() }
        let ada = TestClient(server: server)
        let first = await ada.get("/v1/feed")
        let hitsBefore = server.pageCacheStatistics.hits
        let second = await ada.get("/v1/feed")
        #expect(first.status == 200 && second.status == 200)
        #expect(second.body == first.body)
        #expect(second.headers["ETag"] == first.headers["ETag"])
        #expect(server.pageCacheStatistics.hits == hitsBefore + 1)

        // The tag answered from the cache: 304, no body
        let tag = try #require(first.headers["ETag"])
        let unchanged = await ConditionalRequestTests.conditional(ada, "/v1/feed", tag)
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["ETag"] == tag)
        #expect(server.pageCacheStatistics.hits == hitsBefore + 2)

        // Another query is another page; another viewer never gets ada's
        let short = await ada.get("/v1/feed", ["limit": "3"])
        #expect(short.json["page", "entries"].array.count == 3)
        let grace = await ada.as("grace").get("/v1/feed")
        #expect(grace.status == 200 && grace.body != first.body)
    }

    @Test func aLikeThroughThisServer_showsOnTheNextPage() async throws {
        let server = try BackendFixture.fresh()
        defer { server.close() }
        let ada = TestClient(server: server)
        _ = await ada.get("/v1/feed")
        let before = try Self.firstEntry(await ada.get("/v1/feed"))
        #expect(await ada.as("grace").send(.put, "/v1/posts/\(before.id)/like", key: "k1").status == 200)
        let after = try Self.firstEntry(await ada.get("/v1/feed"))
        #expect(after.id == before.id)
        #expect(after.likes == before.likes + 1)

        // A thread and a profile too: a reply shows in the thread at once
        _ = await ada.get("/v1/posts/\(before.id)/thread")
        #expect(
            await ada.send(.post, "/v1/posts/\(before.id)/replies", body: #"{"text":"cached?"}"#, key: "r1")
                .status == 201)
        let thread = await ada.get("/v1/posts/\(before.id)/thread")
        #expect(thread.text.contains("cached?"), "\(thread.text.prefix(300))")
    }

    /// Ada's feed read on `first` until a read comes from its cache, then @grace's like through
    /// `second` on the same database: `first`'s next page shows it.
    ///
    /// On PostgreSQL the cache's version is the server's snapshot, which any commit on the
    /// server moves, other tests' included: a read may find it moved and build its page again,
    /// so the feed is read again (at most 50 times) until one comes from the cache.
    static func expectALikeThroughTheOther(_ first: BackendServer, _ second: BackendServer) async throws {
        let ada = TestClient(server: first)
        var before = try firstEntry(await ada.get("/v1/feed"))
        for _ in 0..<50 where first.pageCacheStatistics.hits == 0 {
            before = try firstEntry(await ada.get("/v1/feed"))
        }
        #expect(first.pageCacheStatistics.hits >= 1, "no read of 50 came from the page cache")
        let like = await TestClient(server: second).as("grace").send(
            .put, "/v1/posts/\(before.id)/like", key: "k1")
        #expect(like.status == 200)
        let after = try firstEntry(await ada.get("/v1/feed"))
        #expect(after.likes == before.likes + 1, "the other server's like is not on this server's page")
    }

    @Test func aLikeThroughAnotherServerOnTheSameFile_showsOnTheNextPage() async throws {
        let server = try BackendFixture.fresh()
        defer { server.close() }
        let other = try BackendServer(
            directory: (server.databasePath as NSString).deletingLastPathComponent, clock: ManualClock())
        defer { other.close() }
        try await Self.expectALikeThroughTheOther(server, other)
    }

    @Test func aSignedOutToken_isRefused_withItsPageCached() async throws {
        let server = try BackendFixture.fresh()
        defer { server.close() }
        let ada = TestClient(server: server)
        _ = await ada.get("/v1/feed")
        #expect(await ada.get("/v1/feed").status == 200)
        #expect(await ada.send(.delete, "/v1/sessions/current").status == 204)
        let after = await ada.get("/v1/feed")
        #expect(after.status == 401 && after.errorCode == "invalid_token")
    }

    @Test func anExpiredToken_isRefused_withItsPageCached() async throws {
        let clock = ManualClock()
        let server = try BackendServer.seededCopy(clock: clock, demoMode: true)
        defer { server.close() }
        let signIn = await server.handle(
            Request(
                .post, "/v1/sessions",
                body: Data(#"{"handle":"ada","password":"\#(DemoAccounts.password)"}"#.utf8)))
        let token = try #require(signIn.json["session", "token"].stringValue, "\(signIn.text.prefix(300))")
        let ada = TestClient(server: server, token: token)
        _ = await ada.get("/v1/feed")
        #expect(await ada.get("/v1/feed").status == 200)
        _ = clock.advance(by: server.sessionPolicy.tokenLifetime + .seconds(1))
        let after = await ada.get("/v1/feed")
        #expect(after.status == 401 && after.errorCode == "token_expired")
    }

    @Test func aLikeThroughAnotherServerOnPostgres_showsOnTheNextPage() async throws {
        let url = try SharedPostgres.newDatabaseURL("page_cache")
        let (first, second) = (try BackendFixture.onPostgres(url), try BackendFixture.onPostgres(url))
        defer {
            first.close()
            second.close()
        }
        try await Self.expectALikeThroughTheOther(first, second)
    }
}
