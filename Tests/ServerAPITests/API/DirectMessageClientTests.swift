@_spi(Testing) import Backend
import Foundation
import MediaModel
import NetworkingTesting
import ServerAPI
import Testing
import Wire

/// The API client's direct-message reads against the embedded backend: what a conversation
/// screen reads, decoded into ServerAPI's values.
@Suite struct DirectMessageClientTests {
    /// Sends a message as the client's account (the mutation manager's job in an app).
    static func say(_ client: APIClient, _ conversation: ConversationID, _ text: String, key: String)
        async throws
        -> Message
    {
        let request = Request(
            .post, "/v1/conversations/\(conversation.rawValue)/messages",
            headers: ["Idempotency-Key": key, "Content-Type": "application/json"],
            body: JSONValue.object(["text": .string(text)]).serialized())
        let (envelope, _) = try await client.perform(request, decoding: SentMessage.self)
        return envelope.payload.message
    }

    @Test func startingAConversation_thenPagingItsMessages_bothWays() async throws {
        // Given ada's conversation with grace, and four messages
        let fixture = try NetworkFixture()
        let ada = fixture.client
        let grace = ada.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        let conversation = try await ada.startConversation(with: ["u2"]).payload
        let again = try await grace.startConversation(with: ["u1"]).payload
        for index in 1...4 {
            _ = try await Self.say(
                index.isMultiple(of: 2) ? grace : ada, conversation.id, "\(index)", key: "k\(index)")
        }

        // When grace reads the newest two, the older ones, and what came after the oldest page
        let newest = try await grace.messages(in: conversation.id, limit: 2).payload
        let older = try await grace.messages(in: conversation.id, before: newest.olderCursor, limit: 2)
            .payload
        let after = try await grace.messages(in: conversation.id, after: older.newerCursor).payload

        // Then both found the same conversation, and the pages hold the messages in order
        #expect(again.id == conversation.id)
        #expect(conversation.members.map(\.handle) == ["ada", "grace"])
        #expect(conversation.others(than: "u1").map(\.handle) == ["grace"])
        #expect(newest.messages.map(\.text) == ["3", "4"])
        #expect(newest.messages.map(\.sender.handle) == ["ada", "grace"])
        #expect(newest.messages.map(\.clientToken) == [nil, "k4"])
        #expect(older.messages.map(\.text) == ["1", "2"])
        #expect(older.olderCursor == nil)
        #expect(after.messages.map(\.text) == ["3", "4"])
        // and grace, who wrote last, has read it all; ada has grace's last one to read
        #expect(newest.conversation.unreadCount == 0)
        #expect(try await ada.messages(in: conversation.id, limit: 1).payload.conversation.unreadCount == 1)
    }

    @Test func theConversationsList_andMarkingRead_decode() async throws {
        let fixture = try NetworkFixture()
        let ada = fixture.client
        let grace = ada.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        let conversation = try await ada.startConversation(with: ["u2"]).payload
        let first = try await Self.say(ada, conversation.id, "hello", key: "a")
        let second = try await Self.say(ada, conversation.id, "are you there?", key: "b")

        let listed = try await grace.conversations().payload
        let read = try await grace.markRead(conversation.id, upTo: first.id).payload
        let stale = try await grace.markRead(conversation.id, upTo: first.id).payload
        let all = try await grace.markRead(conversation.id, upTo: second.id).payload

        #expect(listed.conversations.map(\.id) == [conversation.id])
        #expect(listed.conversations.first?.unreadCount == 2)
        #expect(listed.conversations.first?.lastMessage?.text == "are you there?")
        #expect(listed.nextCursor == nil)
        #expect(read == ReadPosition(conversationID: conversation.id, readUpTo: first.id, unreadCount: 1))
        #expect(stale == read)
        #expect(all.unreadCount == 0)
    }

    @Test func aNonMembersRead_isA403_classifiedAsForbidden() async throws {
        let fixture = try NetworkFixture()
        let conversation = try await fixture.client.startConversation(with: ["u2"]).payload
        let alan = fixture.client.signedIn(as: fixture.server.testToken(forHandle: "alan"))
        await #expect {
            _ = try await alan.messages(in: conversation.id)
        } throws: { error in
            (error as? TransportError)?.errorClass == .forbidden
        }
    }

    @Test func aMessageEvent_decodesWithItsMessage() async throws {
        let fixture = try NetworkFixture()
        let grace = fixture.client.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        let start = try await grace.events(after: "latest").payload.nextCursor
        let conversation = try await fixture.client.startConversation(with: ["u2"]).payload
        _ = try await Self.say(fixture.client, conversation.id, "psst", key: "e")

        let events = try await grace.events(after: start).payload.events.filter { $0.kind == .message }

        #expect(events.count == 1)
        #expect(events.first?.message?.text == "psst")
        #expect(events.first?.message?.conversationID == conversation.id)
        #expect(events.first?.actor.handle == "ada")
    }

    @Test func everyDirectMessagePayload_roundTripsThroughItsWireForm() throws {
        let ada = User(id: "u1", handle: "ada", displayName: "Ada")
        let post = Media(
            id: "m1", author: ada, createdAt: Date(timeIntervalSince1970: 1_714_564_800), text: "hi")
        let message = Message(
            id: "dm1", conversationID: "c1", sender: ada,
            createdAt: Date(timeIntervalSince1970: 1_714_564_801),
            text: "look", sharedPostID: "m1", sharedPost: post, clientToken: "t1")
        let conversation = Conversation(
            id: "c1", members: [ada], lastMessage: message, readUpTo: "dm1", unreadCount: 2,
            createdAt: post.createdAt, updatedAt: message.createdAt)
        for payload in [
            try roundTrip(conversation),
            try roundTrip(ConversationList(conversations: [conversation], nextCursor: "k:1.1")),
            try roundTrip(
                MessagePage(
                    conversation: conversation, messages: [message], olderCursor: "d:1", newerCursor: "d:1")),
            try roundTrip(ReadPosition(conversationID: "c1", readUpTo: "dm1", unreadCount: 0)),
            try roundTrip(message),
        ] { #expect(payload) }
        let event = ActivityEvent(
            id: "ev1", kind: .message, actor: ada, message: message, createdAt: message.createdAt)
        try #expect(roundTrip(EventPage(events: [event], nextCursor: "e:1")))
    }

    private func roundTrip<Payload: WirePayload>(_ payload: Payload) throws -> Bool {
        let envelope = WireEnvelope(payload)
        return try WireFormat.decode(Payload.self, from: WireFormat.encode(envelope)) == envelope
    }
}

/// The `mutation` payload of a sent message, read here without the Mutations module.
private struct SentMessage: WirePayload {
    static let envelopeKey = "mutation"
    var message: Message

    init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        guard case .object(let fields) = json, let message = fields["message"] else {
            throw WireFormatError(path: path, problem: "no message")
        }
        self.message = try Message(json: message, at: path.appending("message"))
    }

    var json: JSONValue { ["message": message.json] }
}
