@_spi(Testing) import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct MutationTests {
    @Test func retryingALikeWhoseResponseWasLost_returnsTheSameResponseAndAppliesOnce() async throws {
        // Given a transport that loses the next response after the server applied the request
        let server = try BackendFixture.fresh()
        let transport = EmbeddedTransport(server: server)
        let post = try Expectations.latestPost(server, by: 2)
        let before = try Expectations.counts(server, post: post).likes
        let request = Request(
            .put, "/v1/posts/m\(post)/like",
            headers: [
                "Authorization": "Bearer \(server.testToken(forHandle: "ada"))",
                "Idempotency-Key": "like-once",
            ])
        transport.injectFaults([.dropResponseAfterApply])

        // When the first attempt times out and the client retries with the same token
        var first: TransportError?
        do { _ = try await transport.send(request) } catch { first = error }
        let retry = try await transport.send(request)
        let again = try await transport.send(request)

        // Then the like was applied once, and every retry gets the same recorded response
        #expect(first?.errorClass == .timeout)
        #expect(try Expectations.counts(server, post: post).likes == before + 1)
        #expect(retry.status == 200)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(again.body == retry.body)
        #expect(retry.json["mutation", "clientToken"].stringValue == "like-once")
        #expect(retry.json["mutation", "changed"].bool == true)
        #expect(retry.json["facts", "m\(post)", "likeCount"].int == before + 1)
        #expect(retry.json["facts", "m\(post)", "viewerLiked"].bool == true)
    }

    @Test func retryingAPostWhoseResponseWasLost_makesOnePost() async throws {
        let server = try BackendFixture.fresh()
        let transport = EmbeddedTransport(server: server)
        let posts = try Expectations.scalar(server, "SELECT COUNT(*) FROM posts")
        let request = Request(
            .post, "/v1/posts",
            headers: [
                "Authorization": "Bearer \(server.testToken(forHandle: "ada"))", "Idempotency-Key": "post-1",
            ],
            body: Data(#"{"text": "hello"}"#.utf8))
        transport.injectFaults([.dropResponseAfterApply, .dropResponseAfterApply])
        for _ in 0..<2 { await #expect(throws: TransportError.self) { try await transport.send(request) } }
        let response = try await transport.send(request)
        #expect(response.status == 201)
        #expect(response.json["mutation", "media", "text"].stringValue == "hello")
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM posts") == posts + 1)
    }

    @Test func concurrentRequestsWithOneToken_applyOnceAndAnswerAlike() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let post = try Expectations.latestPost(server, by: 3)
        let before = try Expectations.counts(server, post: post).replies
        let responses = await withTaskGroup(of: Response.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await client.send(
                        .post, "/v1/posts/m\(post)/replies", body: #"{"text": "once"}"#, key: "same")
                }
            }
            var all: [Response] = []
            for await response in group { all.append(response) }
            return all
        }
        #expect(Set(responses.map(\.body)).count == 1)
        #expect(responses.filter { $0.headers["Idempotent-Replayed"] == nil }.count == 1)
        #expect(try Expectations.counts(server, post: post).replies == before + 1)
    }

    @Test func aTokenReusedForAnotherRequest_is409() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        #expect(await client.send(.put, "/v1/posts/m5/like", key: "reused").status == 200)
        let other = await client.send(.put, "/v1/posts/m6/like", key: "reused")
        #expect(other.status == 409)
        #expect(other.errorCode == "client_token_reused")
    }

    @Test func tokensAreScopedPerUser() async throws {
        // Given a post neither ada nor grace likes
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let grace = ada.as("grace")
        let post = try Expectations.latestPost(server, by: 5)
        _ = await ada.send(.delete, "/v1/posts/m\(post)/like", key: "ada-clear")
        _ = await grace.send(.delete, "/v1/posts/m\(post)/like", key: "grace-clear")
        let before = try Expectations.counts(server, post: post).likes

        // When both like it with the same client token
        let first = await ada.send(.put, "/v1/posts/m\(post)/like", key: "shared-token")
        let second = await grace.send(.put, "/v1/posts/m\(post)/like", key: "shared-token")

        // Then both likes count: a token is unique per user, not globally
        #expect(first.status == 200 && second.status == 200)
        #expect(second.headers["Idempotent-Replayed"] == nil)
        #expect(try Expectations.counts(server, post: post).likes == before + 2)
    }

    @Test func aMutationWithoutAClientToken_is400() async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).send(.put, "/v1/posts/m5/like")
        #expect(response.status == 400)
        #expect(response.errorCode == "missing_client_token")
    }

    @Test func likeThenUnlike_echoTheTokenAndTheUpdatedFacts() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let post = try Expectations.latestPost(server, by: 4)
        _ = await client.send(.delete, "/v1/posts/m\(post)/like", key: "clear")
        let base = try Expectations.counts(server, post: post).likes
        let liked = await client.send(.put, "/v1/posts/m\(post)/like", key: "l1")
        let likedAgain = await client.send(.put, "/v1/posts/m\(post)/like", key: "l2")
        let unliked = await client.send(.delete, "/v1/posts/m\(post)/like", key: "u1")
        #expect(liked.json["mutation", "clientToken"].stringValue == "l1")
        #expect(liked.json["facts", "m\(post)", "likeCount"].int == base + 1)
        #expect(likedAgain.json["mutation", "changed"].bool == false)
        #expect(likedAgain.json["facts", "m\(post)", "likeCount"].int == base + 1)
        #expect(unliked.json["facts", "m\(post)", "likeCount"].int == base)
        #expect(unliked.json["facts", "m\(post)", "viewerLiked"].bool == false)
        let revisions = [liked, unliked].compactMap { $0.json["facts", "m\(post)", "revision"].int }
        #expect(revisions.count == 2 && revisions[0] < revisions[1])
    }

    @Test func repostAndFollow_reportTheirEffects() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let post = try Expectations.latestPost(server, by: 9)
        let reposted = await client.send(.put, "/v1/posts/m\(post)/repost", key: "rp")
        #expect(reposted.status == 200)
        #expect(reposted.json["mutation", "entryID"].stringValue?.hasPrefix("r") == true)
        #expect(
            reposted.json["facts", "m\(post)", "repostCount"].int
                == (try Expectations.counts(server, post: post).reposts))

        let notFollowed = try #require(
            (2...60).map(Int64.init).first { !(try Expectations.followees(server)).contains($0) })
        let followed = await client.send(.put, "/v1/users/u\(notFollowed)/follow", key: "f1")
        #expect(followed.json["mutation", "following"].bool == true)
        #expect(followed.json["mutation", "changed"].bool == true)
        #expect(followed.json["mutation", "followingCount"].int == 21)
        let unfollowed = await client.send(.delete, "/v1/users/u\(notFollowed)/follow", key: "f2")
        #expect(unfollowed.json["mutation", "followingCount"].int == 20)
        #expect(await client.send(.put, "/v1/users/u1/follow", key: "self").errorCode == "self_follow")
    }

    @Test func undoingARepost_takesItsCountAndItsFeedEntryBack_once() async throws {
        // Given the viewer (u1) reposted a post, and one of their followers sees the repost on Home
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let post = try Expectations.latestPost(server, by: 9)
        let before = try Expectations.counts(server, post: post).reposts
        let follower = try #require(
            try server.database.queryFirst("SELECT follower FROM follows WHERE followee = 1 LIMIT 1") {
                try $0.int64(0)
            })
        let followerClient = client.as(Expectations.handle(follower))
        let reposted = await client.send(.put, "/v1/posts/m\(post)/repost", key: "rp")
        let entryID = try #require(reposted.json["mutation", "entryID"].stringValue)
        let shared = try await pageThrough(followerClient, "/v1/feed", limit: 100)
        #expect(shared.filter { $0.id.rawValue == entryID }.count == 1, "the follower sees the repost once")

        // When the viewer undoes it
        let undone = await client.send(.delete, "/v1/posts/m\(post)/repost", key: "un-rp")

        // Then the count is back, the facts say so, and the repost is gone from the follower's feed
        #expect(undone.status == 200, "\(undone.text)")
        #expect(undone.json["mutation", "changed"].bool == true)
        #expect(undone.json["mutation", "reposted"].bool == false)
        #expect(undone.json["mutation", "mediaID"].stringValue == "m\(post)")
        #expect(try Expectations.counts(server, post: post).reposts == before)
        #expect(undone.json["facts", "m\(post)", "repostCount"].int == before)
        #expect(undone.json["facts", "m\(post)", "viewerReposted"] == .null, "not reposted any more")
        let after = try await pageThrough(followerClient, "/v1/feed", limit: 100)
        #expect(!after.contains { $0.id.rawValue == entryID }, "the repost left the follower's feed")
        let restInOrder = after.map(\.id) == shared.map(\.id).filter { $0.rawValue != entryID }
        #expect(restInOrder, "the rest of the follower's feed stays, in order")

        // And undoing it again changes nothing
        let again = await client.send(.delete, "/v1/posts/m\(post)/repost", key: "un-rp-2")
        #expect(again.status == 200)
        #expect(again.json["mutation", "changed"].bool == false)
        #expect(try Expectations.counts(server, post: post).reposts == before)
        #expect(await client.send(.delete, "/v1/posts/m999999/repost", key: "gone").status == 404)
    }

    @Test func deletingAPost_takesItAndItsRepostsOutOfEveryFeed() async throws {
        // Given the viewer (u1) posted, a follower reposted it, and one of the follower's own
        // followers sees that repost on Home
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let follower = try #require(
            try server.database.queryFirst("SELECT follower FROM follows WHERE followee = 1 LIMIT 1") {
                try $0.int64(0)
            })
        let second = try #require(
            try server.database.queryFirst(
                "SELECT follower FROM follows WHERE followee = ? AND follower <> 1 LIMIT 1", follower
            ) { try $0.int64(0) })
        let followerClient = client.as(Expectations.handle(follower))
        let secondClient = client.as(Expectations.handle(second))
        let posted = await client.send(.post, "/v1/posts", body: #"{"text":"soon gone"}"#, key: "p")
        let post = try #require(
            posted.json["mutation", "media", "id"].stringValue, "\(posted.text.prefix(300))")
        let reposted = await followerClient.send(.put, "/v1/posts/\(post)/repost", key: "rp")
        let repost = try #require(reposted.json["mutation", "entryID"].stringValue)
        let seen = try await pageThrough(followerClient, "/v1/feed", limit: 100)
        let seenSecond = try await pageThrough(secondClient, "/v1/feed", limit: 100)
        #expect(seen.contains { $0.id.rawValue == "p" + post.dropFirst() })
        #expect(seenSecond.filter { $0.id.rawValue == repost }.count == 1)

        // When the viewer deletes the post
        #expect(await client.send(.delete, "/v1/posts/\(post)", key: "del").status == 200)

        // Then neither feed shows the post or its repost, and the rest stays in order
        let after = try await pageThrough(followerClient, "/v1/feed", limit: 100)
        let afterSecond = try await pageThrough(secondClient, "/v1/feed", limit: 100)
        let gone: Set<String> = ["p" + post.dropFirst(), repost]
        #expect(after.map(\.id.rawValue) == seen.map(\.id.rawValue).filter { !gone.contains($0) })
        #expect(afterSecond.map(\.id.rawValue) == seenSecond.map(\.id.rawValue).filter { !gone.contains($0) })
    }

    @Test func postsWithEveryKindOfAttachment_roundTripThroughTheBackend() async throws {
        // Given a post with a photo, a video, a carousel and an attachment type this build does not know
        let server = try BackendFixture.fresh()
        let image = PixelImage.generated(seed: 9, width: 4, height: 3)
        let attachments: [MediaModel.Attachment] = [
            .photo(.init(width: 400, height: 300, pixels: image, altText: "a sunset")),
            .video(.init(width: 1920, height: 1080, duration: .milliseconds(12_345), poster: image)),
            .carousel([.photo(.init(width: 4, height: 3, pixels: image))]),
            .unknown(
                UnknownPayload(typeName: "sticker", raw: ["type": "sticker", "name": "wave", "size": 3])),
        ]
        let body: JSONValue = ["text": "everything", "attachments": .array(attachments.map(\.json))]

        // When it is posted and read back
        let created = await TestClient(server: server).send(
            .post, "/v1/posts", body: String(decoding: body.serialized(), as: UTF8.self), key: "all-kinds")
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(created.json["mutation", "media", "id"].stringValue)
        let read = try WireFormat.decode(
            Media.self, from: await TestClient(server: server).get("/v1/posts/\(id)").body)

        // Then every attachment, the unknown one included, comes back exactly
        #expect(read.payload.attachments == attachments)
        #expect(read.payload.kind == .unknown("sticker"))
        #expect(read.payload.createdAt == BackendSeed.epoch)
    }
}
