import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct AuthorizationTests {
    @Test(arguments: [
        "/v1/feed", "/v1/me", "/v1/events", "/v1/posts/m1", "/v1/users/u2", "/v1/posts/m1/thread",
    ])
    func readingWithoutAToken_is401(path: String) async throws {
        let server = try BackendFixture.fresh()
        var client = TestClient(server: server)
        client.token = nil
        let response = await client.get(path)
        #expect(response.status == 401)
        #expect(response.errorCode == "unauthorized")
        #expect(response.headers["WWW-Authenticate"] != nil)
    }

    @Test func aBadToken_is401AndSaysToSignInAgain() async throws {
        let server = try BackendFixture.fresh()
        var client = TestClient(server: server)
        client.token = "not-a-real-token"
        let response = await client.send(.put, "/v1/posts/m1/like", key: "k")
        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_token")
        #expect(
            response.errorMessage
                == "bearer token 'not-a-re…' is not valid (unknown, or revoked by signing out or renewing); "
                + "sign in again with POST /v1/sessions")
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM mutations") == 0)
    }

    @Test func deletingAnothersPost_is403AndChangesNothing() async throws {
        let server = try BackendFixture.fresh()
        let victim = try Expectations.latestPost(server, by: 2)
        let response = await TestClient(server: server).send(.delete, "/v1/posts/m\(victim)", key: "del-1")
        #expect(response.status == 403)
        #expect(response.errorMessage == "post 'm\(victim)' belongs to @grace; only its author may delete it")
        #expect(try Expectations.scalar(server, "SELECT deleted FROM posts WHERE id = ?", victim) == 0)
    }

    @Test func deletingOwnPost_hidesItAndFixesTheParentsReplyCount() async throws {
        // Given ada's reply to grace's post
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let parent = try Expectations.latestPost(server, by: 2)
        let before = try Expectations.counts(server, post: parent)
        let reply = await ada.send(.post, "/v1/posts/m\(parent)/replies", body: #"{"text": "hi"}"#, key: "r1")
        let replyID = try #require(reply.json["mutation", "media", "id"].stringValue)
        #expect(try Expectations.counts(server, post: parent).replies == before.replies + 1)

        // When ada deletes it
        let deleted = await ada.send(.delete, "/v1/posts/\(replyID)", key: "d1")

        // Then it is gone everywhere and the parent's facts say so
        #expect(deleted.status == 200)
        #expect(deleted.json["facts", "m\(parent)", "replyCount"].int == before.replies)
        #expect(await ada.get("/v1/posts/\(replyID)").status == 404)
        #expect(await ada.send(.delete, "/v1/posts/\(replyID)", key: "d2").status == 404)
    }

    @Test(arguments: [
        "/v1/posts/m999999", "/v1/posts/x1", "/v1/posts/m", "/v1/posts/m-3", "/v1/users/u999",
        "/v1/users/ada",
    ])
    func unknownIds_are404(path: String) async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).get(path)
        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
    }

    @Test func likingAnUnknownPost_is404() async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).send(.put, "/v1/posts/m424242/like", key: "k")
        #expect(response.status == 404)
        #expect(response.errorMessage == "no post with id 'm424242'; it may have been deleted")
    }
}
