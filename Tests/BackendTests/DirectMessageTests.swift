@_spi(Testing) import Backend
import Foundation
import MediaModel
import PhotoTesting
import Storage
import Testing
import Wire

/// Direct messages: conversations found or made by their members, messages paged both ways,
/// sends applied once per key, read positions, and the event a new message is.
@Suite struct DirectMessageTests {
    /// Starts (or finds) the conversation of `client`'s account and `members`; its id.
    static func start(_ client: TestClient, _ members: [String]) async throws -> String {
        let body = JSONValue.object(["members": .array(members.map { .string($0) })]).serialized()
        let response = await client.send(
            .post, "/v1/conversations", body: String(decoding: body, as: UTF8.self))
        try #require((200...201).contains(response.status), "\(response.text)")
        return try #require(response.json["conversation", "id"].stringValue)
    }

    /// Sends a message of `text` under `key`.
    static func say(_ client: TestClient, _ conversation: String, _ text: String, key: String) async
        -> Response
    {
        let body = JSONValue.object(["text": .string(text)]).serialized()
        return await client.send(
            .post, "/v1/conversations/\(conversation)/messages", body: String(decoding: body, as: UTF8.self),
            key: key)
    }

    /// The texts of a messages page, in order.
    static func texts(_ response: Response) -> [String] {
        response.json["messages", "items"].array.compactMap { $0["text"].stringValue }
    }

    @Test func startingAConversationTwice_findsTheSameOne_whateverTheOrderOfMembers() async throws {
        // Given ada
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)

        // When she starts a conversation with grace and alan, then again listing them the other way
        // round and herself too
        let first = await ada.send(.post, "/v1/conversations", body: #"{"members": ["u2", "u3"]}"#)
        let again = await ada.send(.post, "/v1/conversations", body: #"{"members": ["u3", "u1", "u2"]}"#)
        let pair = await ada.send(.post, "/v1/conversations", body: #"{"members": ["u2"]}"#)

        // Then the first makes it (201), the second finds it (200), and a pair is another one
        #expect(first.status == 201, "\(first.text)")
        #expect(again.status == 200, "\(again.text)")
        #expect(pair.status == 201)
        let id = try #require(first.json["conversation", "id"].stringValue)
        #expect(again.json["conversation", "id"].stringValue == id)
        #expect(pair.json["conversation", "id"].stringValue != id)
        let handles = first.json["conversation", "members"].array.compactMap { $0["handle"].stringValue }
        #expect(handles == ["ada", "grace", "alan"])
        #expect(first.json["conversation", "unreadCount"].int == 0)
        #expect(first.json["conversation", "lastMessage"] == .null)
    }

    @Test func messages_pageBothWaysFromACursor_oldestFirstInEachPage() async throws {
        // Given five messages, ada and grace taking turns
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let grace = ada.as("grace")
        let id = try await Self.start(ada, ["u2"])
        for index in 1...5 {
            let sender = index.isMultiple(of: 2) ? grace : ada
            #expect(await Self.say(sender, id, "m\(index)", key: "k\(index)").status == 201)
        }
        let path = "/v1/conversations/\(id)/messages"

        // When ada reads the newest two, then older pages, then newer again from the oldest
        let newest = await ada.get(path, ["limit": "2"])
        let older = try await ada.get(
            path, ["limit": "2", "before": #require(newest.json["messages", "olderCursor"].stringValue)])
        let oldest = try await ada.get(
            path, ["limit": "2", "before": #require(older.json["messages", "olderCursor"].stringValue)])
        let forward = try await ada.get(
            path, ["limit": "3", "after": #require(oldest.json["messages", "newerCursor"].stringValue)])
        let caughtUp = try await ada.get(
            path, ["after": #require(newest.json["messages", "newerCursor"].stringValue)])

        // Then each page is in the server's order and the cursors walk without gaps or repeats
        #expect(Self.texts(newest) == ["m4", "m5"])
        #expect(Self.texts(older) == ["m2", "m3"])
        #expect(Self.texts(oldest) == ["m1"])
        #expect(oldest.json["messages", "olderCursor"] == .null)
        #expect(Self.texts(forward) == ["m2", "m3", "m4"])
        #expect(forward.json["messages", "olderCursor"].stringValue != nil)
        #expect(Self.texts(caughtUp) == [])
        #expect(caughtUp.json["messages", "newerCursor"] == newest.json["messages", "newerCursor"])
        // and each message names its sender; only the sender sees its client token
        let items = newest.json["messages", "items"].array
        #expect(items.map { $0["sender", "handle"].stringValue } == ["grace", "ada"])
        #expect(items.map { $0["clientToken"].stringValue } == [nil, "k5"])
        #expect(newest.json["messages", "conversation", "id"].stringValue == id)
    }

    @Test func bothCursors_orACursorOfAnotherList_are400() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2"])
        let path = "/v1/conversations/\(id)/messages"
        let both = await ada.get(path, ["before": "d:5", "after": "d:1"])
        let foreign = await ada.get(path, ["before": "f:1.0.1"])
        #expect([both.status, foreign.status] == [400, 400] as [Int])
        #expect(foreign.errorCode == "invalid_parameter")
    }

    @Test func aResentMessage_getsTheFirstAnswer_andIsStoredOnce() async throws {
        // Given a transport that loses the answer to ada's message after the server stored it
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2"])
        let transport = EmbeddedTransport(server: server)
        let request = Request(
            .post, "/v1/conversations/\(id)/messages",
            headers: [
                "Authorization": "Bearer \(server.testToken(forHandle: "ada"))", "Idempotency-Key": "once",
            ],
            body: Data(#"{"text": "hello grace"}"#.utf8))
        transport.injectFaults([.dropResponseAfterApply])

        // When the app sends it again with the same key, twice
        await #expect(throws: TransportError.self) { try await transport.send(request) }
        let retry = try await transport.send(request)
        let again = try await transport.send(request)

        // Then one message is stored and both resends get the first answer
        #expect(retry.status == 201)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(again.body == retry.body)
        #expect(retry.json["mutation", "clientToken"].stringValue == "once")
        #expect(retry.json["mutation", "message", "text"].stringValue == "hello grace")
        #expect(retry.json["mutation", "conversationID"].stringValue == id)
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM messages") == 1)
    }

    @Test func conversations_listNewestMessageFirst_withUnreadCounts_andPage() async throws {
        // Given grace in three conversations with ada, alan and edsger, with messages at
        // different times (the one with edsger has none)
        let clock = ManualClock()
        let server = try BackendFixture.fresh(clock: clock)
        let grace = TestClient(server: server).as("grace")
        let withAda = try await Self.start(grace, ["u1"])
        let withAlan = try await Self.start(grace, ["u3"])
        _ = clock.advance(by: .seconds(1))
        let withEdsger = try await Self.start(grace, ["u4"])
        _ = clock.advance(by: .seconds(1))
        _ = await Self.say(grace.as("alan"), withAlan, "hi", key: "a1")
        _ = clock.advance(by: .seconds(1))
        _ = await Self.say(grace.as("ada"), withAda, "one", key: "b1")
        _ = await Self.say(grace.as("ada"), withAda, "two", key: "b2")
        _ = await Self.say(grace, withAda, "yes?", key: "b3")
        _ = await Self.say(grace.as("ada"), withAda, "three", key: "b4")

        // When grace lists them two at a time
        let first = await grace.get("/v1/conversations", ["limit": "2"])
        let cursor = try #require(first.json["conversations", "nextCursor"].stringValue)
        let second = await grace.get("/v1/conversations", ["limit": "2", "cursor": cursor])

        // Then the newest message ranks first, each with its last message and grace's unread count
        let items = first.json["conversations", "items"].array + second.json["conversations", "items"].array
        #expect(items.map { $0["id"].stringValue } == [withAda, withAlan, withEdsger])
        #expect(items.map { $0["unreadCount"].int } == [1, 1, 0])
        #expect(items.map { $0["lastMessage", "text"].stringValue } == ["three", "hi", nil])
        #expect(second.json["conversations", "nextCursor"] == .null)
    }

    @Test func markingRead_movesTheReadPositionForwardOnly_andCountsOnlyOthersMessages() async throws {
        // Given three messages of ada's to grace
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let grace = ada.as("grace")
        let id = try await Self.start(ada, ["u2"])
        var ids: [String] = []
        for index in 1...3 {
            let response = await Self.say(ada, id, "\(index)", key: "k\(index)")
            ids.append(try #require(response.json["mutation", "message", "id"].stringValue))
        }
        let path = "/v1/conversations/\(id)/read"

        // When grace reads up to the second, then (a late request) up to the first
        let second = await grace.send(.put, path, body: #"{"messageID": "\#(ids[1])"}"#)
        let first = await grace.send(.put, path, body: #"{"messageID": "\#(ids[0])"}"#)

        // Then the position stays at the second and one message of ada's is unread
        #expect(second.status == 200, "\(second.text)")
        #expect(second.json["read", "readUpTo"].stringValue == ids[1])
        #expect(first.json["read", "readUpTo"].stringValue == ids[1])
        #expect(first.json["read", "unreadCount"].int == 1)
        // and once grace writes herself, she has read everything before her message
        _ = await Self.say(grace, id, "mine", key: "g1")
        let listed = await grace.get("/v1/conversations")
        #expect(listed.json["conversations", "items", 0, "unreadCount"].int == 0)
        #expect(listed.json["conversations", "items", 0, "readUpTo"].stringValue != nil)
        // and a message of another conversation is not one to mark
        let other = try await Self.start(grace, ["u3"])
        let foreign = await grace.send(
            .put, "/v1/conversations/\(other)/read", body: #"{"messageID": "\#(ids[2])"}"#)
        #expect(foreign.status == 404)
    }

    @Test func aMessageReadByTheOthers_isSeenUpToIt_forItsSender() async throws {
        // Given two messages of ada's to grace and alan
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2", "u3"])
        var ids: [String] = []
        for index in 1...2 {
            let response = await Self.say(ada, id, "\(index)", key: "k\(index)")
            ids.append(try #require(response.json["mutation", "message", "id"].stringValue))
        }
        let path = "/v1/conversations/\(id)/read"
        func seen() async -> String? {
            await ada.get("/v1/conversations").json["conversations", "items", 0, "seenUpTo"].stringValue
        }
        // Then nothing is seen until every other member read: grace the second, alan the first
        #expect(await seen() == nil)
        _ = await ada.as("grace").send(.put, path, body: #"{"messageID": "\#(ids[1])"}"#)
        #expect(await seen() == nil, "alan has read nothing")
        _ = await ada.as("alan").send(.put, path, body: #"{"messageID": "\#(ids[0])"}"#)
        #expect(await seen() == ids[0], "seen by everyone up to the first")
        // And the messages page says the same
        let page = await ada.get("/v1/conversations/\(id)/messages")
        #expect(page.json["messages", "conversation", "seenUpTo"].stringValue == ids[0])
    }

    @Test func aNewMessage_isAnEventForTheOtherMembersOnly_withTheSharedPostAsItsMedia() async throws {
        // Given a conversation of ada, grace and alan, and a post of edsger's
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2", "u3"])
        let post = try Expectations.latestPost(server, by: 4)
        let before = await ada.as("grace").get("/v1/events", ["cursor": "latest"])
        let cursor = try #require(before.json["events", "nextCursor"].stringValue)

        // When ada shares edsger's post with a word
        let sent = await ada.send(
            .post, "/v1/conversations/\(id)/messages",
            body: #"{"text": "look", "sharedPostID": "m\#(post)"}"#,
            key: "share")

        // Then grace and alan each get one message event, ada none
        #expect(sent.status == 201, "\(sent.text)")
        #expect(sent.json["mutation", "message", "sharedPost", "id"].stringValue == "m\(post)")
        #expect(sent.json["facts", "m\(post)"] != .null)
        for handle in ["grace", "alan"] {
            let events = await ada.as(handle).get("/v1/events", ["cursor": cursor])
            let items = events.json["events", "items"].array.filter { $0["kind"].stringValue == "message" }
            #expect(items.count == 1, "\(handle): \(events.text)")
            #expect(items.first?["message", "text"].stringValue == "look")
            #expect(items.first?["message", "conversationID"].stringValue == id)
            #expect(items.first?["message", "clientToken"] == .null)
            #expect(items.first?["media", "id"].stringValue == "m\(post)")
            #expect(items.first?["actor", "handle"].stringValue == "ada")
        }
        let own = await ada.get("/v1/events", ["cursor": "e:0", "limit": "100"])
        #expect(!own.json["events", "items"].array.contains { $0["kind"].stringValue == "message" })
    }

    @Test func aSharedPost_isACardWhileItLives_andItsIDStaysOnceDeleted() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2"])
        let made = await ada.send(.post, "/v1/posts", body: #"{"text": "mine"}"#, key: "p")
        let post = try #require(made.json["mutation", "media", "id"].stringValue)
        _ = await ada.send(
            .post, "/v1/conversations/\(id)/messages", body: #"{"sharedPostID": "\#(post)"}"#, key: "share")
        let shown = await ada.as("grace").get("/v1/conversations/\(id)/messages")
        _ = await ada.send(.delete, "/v1/posts/\(post)", key: "gone")
        let gone = await ada.as("grace").get("/v1/conversations/\(id)/messages")
        let missing = await ada.send(
            .post, "/v1/conversations/\(id)/messages", body: #"{"sharedPostID": "\#(post)"}"#, key: "again")

        #expect(shown.json["messages", "items", 0, "sharedPost", "text"].stringValue == "mine")
        #expect(gone.json["messages", "items", 0, "sharedPost"] == .null)
        #expect(gone.json["messages", "items", 0, "sharedPostID"].stringValue == post)
        #expect(missing.status == 404)
    }

    @Test func aPhotoMessage_goesThroughThePostsUploadPath() async throws {
        // Given a JPEG
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2"])
        let jpeg = try PhotoBytes.jpeg(width: 800, height: 400)

        // When ada sends it without text
        let body = PhotoUploadTests.body("", [(jpeg, "the sea")])
        let sent = await ada.send(.post, "/v1/conversations/\(id)/messages", body: body, key: "photo")

        // Then the message carries the stored photo, which grace can fetch
        #expect(sent.status == 201, "\(sent.text)")
        let photo = sent.json["mutation", "message", "attachments", 0]
        let name = try #require(photo["id"].stringValue)
        #expect(photo["width"].int == 800 && photo["data"] == .null)
        #expect(await ada.as("grace").get("/v1/photos/\(name)", ["width": "100"]).status == 200)
    }

    @Test func anEmptyMessage_is400_andRecordedUnderItsKey() async throws {
        let server = try BackendFixture.fresh()
        let ada = TestClient(server: server)
        let id = try await Self.start(ada, ["u2"])
        let empty = await ada.send(
            .post, "/v1/conversations/\(id)/messages", body: #"{"text": "  "}"#, key: "e")
        #expect(empty.status == 400)
        #expect(
            empty.errorMessage == "a message needs text, an attachment or a shared post; all three are empty")
        #expect(try Expectations.scalar(server, "SELECT COUNT(*) FROM messages") == 0)
    }
}
