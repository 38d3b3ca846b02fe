import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct EventStreamTests {
    @Test func events_areReadByCursorOldestFirst() async throws {
        // Given ada's event stream read to its end
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        var cursor: String?
        var seen: [String] = []
        repeat {
            var query = ["limit": "100"]
            if let cursor { query["cursor"] = cursor }
            let page = await ada.get("/v1/events", query)
            let items = page.json["events", "items"].array
            seen += items.compactMap { $0["id"].stringValue }
            let next = page.json["events", "nextCursor"].stringValue
            if items.isEmpty { break }
            cursor = next
        } while true
        let stored = try Expectations.scalar(server, "SELECT COUNT(*) FROM events WHERE recipient = 1")
        #expect(seen.count == stored)
        #expect(Set(seen).count == seen.count)

        // When grace likes ada's post and follows... nothing new has a kind ada cannot read
        let post = try Expectations.latestPost(server, by: 1)
        _ = await ada.as("grace").send(.delete, "/v1/posts/m\(post)/like", key: "clear")
        _ = await ada.as("grace").send(.put, "/v1/posts/m\(post)/like", key: "like")
        var query = ["limit": "100"]
        if let cursor { query["cursor"] = cursor }
        let fresh = await ada.get("/v1/events", query)

        // Then only the new event follows the cursor
        let items = fresh.json["events", "items"].array
        #expect(items.count == 1)
        #expect(items.first?["kind"].stringValue == "like")
        #expect(items.first?["actor", "handle"].stringValue == "grace")
        #expect(items.first?["media", "id"].stringValue == "m\(post)")
        #expect(fresh.json["facts", "m\(post)", "likeCount"].int != nil)
    }

    @Test func replyMentionAndFollow_eachReachTheirRecipient() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let latest = await ada.get("/v1/events", ["cursor": "latest"])
        let cursor = try #require(latest.json["events", "nextCursor"].stringValue)
        #expect(latest.json["events", "items"].array.isEmpty)

        let post = try Expectations.latestPost(server, by: 1)
        let carol = ada.as("carol")
        _ = await carol.send(.post, "/v1/posts/m\(post)/replies", body: #"{"text": "nice"}"#, key: "r")
        _ = await carol.send(.post, "/v1/posts", body: #"{"text": "hey @ada and @nobody"}"#, key: "m")
        _ = await carol.send(.delete, "/v1/users/u1/follow", key: "unf")
        _ = await carol.send(.put, "/v1/users/u1/follow", key: "f")

        let events = await ada.get("/v1/events", ["cursor": cursor])
        #expect(
            events.json["events", "items"].array.compactMap { $0["kind"].stringValue } == [
                "reply", "mention", "follow",
            ])
        #expect(events.json["events", "items", 0, "media", "text"].stringValue == "nice")
        #expect(events.json["events", "items", 2, "media"] == .null)
    }

    @Test func longPoll_answersAsSoonAsAnEventArrives() async throws {
        // Given ada waiting on her stream from its newest event
        let clock = ManualClock()
        let server = try BackendFixture.fresh(clock: clock)
        let ada = TestClient(server: server)
        let cursor = try #require(
            await ada.get("/v1/events", ["cursor": "latest"]).json["events", "nextCursor"].stringValue)
        let poll = Task { await ada.get("/v1/events", ["cursor": cursor, "wait": "30"]) }
        await clock.waitForSleepers(1)

        // When grace follows her
        _ = await ada.as("grace").send(.delete, "/v1/users/u1/follow", key: "a")
        _ = await ada.as("grace").send(.put, "/v1/users/u1/follow", key: "b")

        // Then the poll answers with the event without time passing
        let response = await poll.value
        #expect(response.json["events", "items", 0, "kind"].stringValue == "follow")
        #expect(clock.now == ManualClock.defaultStart)
    }

    @Test func longPoll_answersEmptyWhenTheWaitRunsOut() async throws {
        let clock = ManualClock()
        let server = try BackendFixture.fresh(clock: clock)
        let ada = TestClient(server: server)
        let cursor = try #require(
            await ada.get("/v1/events", ["cursor": "latest"]).json["events", "nextCursor"].stringValue)
        let poll = Task { await ada.get("/v1/events", ["cursor": cursor, "wait": "3"]) }
        for _ in 0..<3 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        let response = await poll.value
        #expect(response.status == 200)
        #expect(response.json["events", "items"].array.isEmpty)
        #expect(response.json["events", "nextCursor"].stringValue == cursor)
    }
}
