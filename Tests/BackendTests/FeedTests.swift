import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct FeedTests {
    @Test func feed_ranksOwnAndFollowedPostsAndFolloweesRepostsByRecency() async throws {
        // Given the seeded backend, viewed by ada
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)

        // When the whole feed is paged through
        let entries = try await pageThrough(client, "/v1/feed", limit: 100)

        // Then it is exactly the ranking SQL computes, newest first
        #expect(entries.map(\.id.rawValue) == (try Expectations.feedOrder(server)))
        let allowed = Set((try Expectations.followees(server) + [1]).map { "u\($0)" })
        for entry in entries where entry.id.rawValue.hasPrefix("p") {
            #expect(
                allowed.contains(entry.media.author.id.rawValue), "\(entry.id) by \(entry.media.author.id)")
        }
        let postTimes = entries.filter { $0.id.rawValue.hasPrefix("p") }.map(\.media.createdAt)
        #expect(postTimes == postTimes.sorted(by: >))
        #expect(entries.contains { if case .reply = $0.context { true } else { false } })
        #expect(entries.contains { if case .repost = $0.context { true } else { false } })
        for entry in entries {
            if case .repost(let by) = entry.context {
                #expect(allowed.contains(by.id.rawValue) && by.id.rawValue != "u1")
            }
        }
    }

    @Test(arguments: [1, 13, 100])
    func paginatingToTheEnd_servesEveryEntryOnceWithoutGaps(limit: Int) async throws {
        let server = try BackendFixture.fresh()
        let entries = try await pageThrough(TestClient(server: server), "/v1/feed", limit: limit)
        let ids = entries.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count, "limit \(limit): repeated entries")
        #expect(ids == (try Expectations.feedOrder(server)), "limit \(limit): gaps or wrong order")
    }

    @Test func paginatingWhileOthersPost_neitherRepeatsNorSkips() async throws {
        // Given ada's feed as it stands, and a followee who keeps posting and reposting
        let clock = ManualClock()
        let server = try BackendFixture.fresh(clock: clock)
        let client = TestClient(server: server)
        let before = try Expectations.feedOrder(server)
        let followee = Expectations.handle(try Expectations.followees(server)[0])
        let poster = client.as(followee)
        let target = try Expectations.latestPost(server, by: 1)

        // When new posts land between every page
        var made = 0
        let entries = try await pageThrough(client, "/v1/feed", limit: 25) { page in
            clock.advance(by: .seconds(1))
            let response = await poster.send(
                .post, "/v1/posts", body: #"{"text": "post \#(page)"}"#, key: "concurrent-\(page)")
            if response.status == 201 { made += 1 }
            if page == 3 { _ = await poster.send(.put, "/v1/posts/m\(target)/repost", key: "repost-\(page)") }
        }

        // Then the pages hold exactly the entries that existed when paging began, once each
        #expect(made > 5)
        #expect(entries.map(\.id.rawValue) == before)
        // and the new posts are on top of a fresh first page
        let top = try WireFormat.decode(
            FeedPage.self, from: await client.get("/v1/feed", ["limit": "3"]).body)
        #expect(top.payload.entries.first?.media.author.handle == followee)
    }

    @Test func paginatingWhileAnotherTaskPostsConcurrently_neitherRepeatsNorSkips() async throws {
        // Given ada's feed as it stands, its first page read, and a followee posting from another task
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let before = try Expectations.feedOrder(server)
        let poster = client.as(Expectations.handle(try Expectations.followees(server)[1]))
        let first = try WireFormat.decode(
            FeedPage.self, from: await client.get("/v1/feed", ["limit": "10"]).body)
        var entries = first.payload.entries
        var cursor = first.payload.nextCursor

        // When the rest is paged while the other task posts
        async let posted: Int = {
            var made = 0
            for index in 0..<40 {
                let response = await poster.send(
                    .post, "/v1/posts", body: #"{"text": "live \#(index)"}"#, key: "c\(index)")
                if response.status == 201 { made += 1 }
                await Task.yield()
            }
            return made
        }()
        while let next = cursor {
            let page = try WireFormat.decode(
                FeedPage.self, from: await client.get("/v1/feed", ["limit": "10", "cursor": next]).body)
            entries += page.payload.entries
            cursor = page.payload.nextCursor
        }

        // Then paging saw exactly what existed when it began, once each
        #expect(await posted == 40)
        #expect(entries.map(\.id.rawValue) == before)
    }

    @Test func replyAndItsParent_appearAsTwoEntriesSharingOneMedia() async throws {
        // Given a followee's post and their reply to it
        let clock = ManualClock()
        let server = try BackendFixture.fresh(clock: clock)
        let client = TestClient(server: server)
        let followee = client.as(Expectations.handle(try Expectations.followees(server)[0]))
        clock.advance(by: .seconds(1))
        let post = await followee.send(.post, "/v1/posts", body: #"{"text": "original"}"#, key: "p")
        let postID = try #require(post.json["mutation", "media", "id"].stringValue)
        clock.advance(by: .seconds(1))
        _ = await followee.send(
            .post, "/v1/posts/\(postID)/replies", body: #"{"text": "follow-up"}"#, key: "r")

        // When ada reads her feed
        let page = try WireFormat.decode(
            FeedPage.self, from: await client.get("/v1/feed", ["limit": "5"]).body)
        let entries = page.payload.entries

        // Then the reply shows its parent and the parent also stands alone, with distinct entry ids
        #expect(entries.count == 5)
        let reply = entries[0]
        let original = entries[1]
        #expect(reply.media.text == "follow-up")
        #expect(reply.context == .reply(parent: original.media))
        #expect(original.media.id.rawValue == postID)
        #expect(original.context == .standalone)
        #expect(reply.id != original.id)
        #expect(reply.mediaIDs == [original.media.id, reply.media.id])
        // and both media's facts come along
        #expect(page.facts[original.media.id]?.replyCount == 1)
        #expect(page.facts[reply.media.id]?.likeCount == 0)
    }

    @Test func pageFacts_reportTheViewersLikes() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let page = try WireFormat.decode(
            FeedPage.self, from: await client.get("/v1/feed", ["limit": "50"]).body)
        let liked = try server.database.query("SELECT post FROM likes WHERE user = 1") {
            "m\(try $0.int64(0))"
        }
        for entry in page.payload.entries {
            let facts = try #require(page.facts[entry.media.id])
            #expect(facts.viewerLiked == liked.contains(entry.media.id.rawValue))
            let stored = try Expectations.counts(
                server, post: Int64(entry.media.id.rawValue.dropFirst()) ?? 0)
            #expect(facts.likeCount == stored.likes)
            #expect(facts.replyCount == stored.replies)
        }
    }
}
