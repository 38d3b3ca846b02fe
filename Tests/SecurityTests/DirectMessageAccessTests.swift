@_spi(Testing) import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// Reading or writing a conversation one is not in (issue 30): only members may, over HTTP and
/// in process alike.
@Suite struct DirectMessageAccessTests {
    /// A conversation of ada and grace with one message of ada's, on `target`; its id, the
    /// message's id, and the tokens of ada, grace and alan (not a member).
    static func privateConversation(_ target: AttackTarget) async throws -> (
        id: String, message: String, ada: String, grace: String, alan: String
    ) {
        let ada = target.backend.testToken(forHandle: "ada")
        let started = try await target.send(
            .post, "/v1/conversations", json: #"{"members": ["u2"]}"#, token: ada)
        let id = try #require(started.json["conversation", "id"].stringValue, "\(started.text)")
        let sent = try await target.send(
            .post, "/v1/conversations/\(id)/messages", json: #"{"text": "for grace only"}"#, token: ada,
            key: "secret")
        let message = try #require(sent.json["mutation", "message", "id"].stringValue, "\(sent.text)")
        return (
            id, message, ada, target.backend.testToken(forHandle: "grace"),
            target.backend.testToken(forHandle: "alan")
        )
    }

    @Test(arguments: AttackPath.allCases)
    func aNonMember_cannotRead_write_orMarkRead_andIsTold403(_ path: AttackPath) async throws {
        // Given ada's conversation with grace
        let target = try AttackTarget(path)
        let (id, message, _, _, alan) = try await Self.privateConversation(target)

        // When alan, signed in but not a member, reads it, writes to it and marks it read
        let read = try await target.send(.get, "/v1/conversations/\(id)/messages", token: alan)
        let write = try await target.send(
            .post, "/v1/conversations/\(id)/messages", json: #"{"text": "let me in"}"#, token: alan, key: "in"
        )
        let mark = try await target.send(
            .put, "/v1/conversations/\(id)/read", json: #"{"messageID": "\#(message)"}"#, token: alan)
        let listed = try await target.send(.get, "/v1/conversations", token: alan)

        // Then each is 403, nothing of the conversation is in an answer, and nothing was written
        let answers = [read, write, mark]
        #expect(answers.map(\.status) == [403, 403, 403] as [Int])
        #expect(answers.map(\.errorCode) == Array(repeating: "not_a_member", count: 3))
        for answer in answers + [listed] {
            #expect(!answer.text.contains("for grace only"), "\(answer.text)")
        }
        #expect(listed.json["conversations", "items"] == .array([]))
        #expect(try Self.messages(target) == 1)
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func withoutAToken_everyRouteIs401(_ path: AttackPath) async throws {
        let target = try AttackTarget(path)
        let (id, message, _, _, _) = try await Self.privateConversation(target)
        let answers = [
            try await target.send(.post, "/v1/conversations", json: #"{"members": ["u2"]}"#),
            try await target.send(.get, "/v1/conversations"),
            try await target.send(.get, "/v1/conversations/\(id)/messages"),
            try await target.send(
                .post, "/v1/conversations/\(id)/messages", json: #"{"text": "x"}"#, key: "anon"),
            try await target.send(
                .put, "/v1/conversations/\(id)/read", json: #"{"messageID": "\#(message)"}"#),
        ]
        #expect(answers.map(\.status) == [401, 401, 401, 401, 401] as [Int])
        #expect(try Self.messages(target) == 1)
        await target.stop()
    }

    @Test(arguments: ["c0", "c01", "c+1", "c-1", "cx", "1", "c999999", "c1%2F..%2F2", "c9223372036854775808"])
    func aForgedConversationID_is404_forAMemberOfAnother(_ forged: String) async throws {
        let target = try AttackTarget(.embedded)
        let (_, _, _, grace, _) = try await Self.privateConversation(target)
        let read = try await target.send(.get, "/v1/conversations/\(forged)/messages", token: grace)
        let write = try await target.send(
            .post, "/v1/conversations/\(forged)/messages", json: #"{"text": "x"}"#, token: grace,
            key: "forged")
        #expect([read.status, write.status] == [404, 404] as [Int], "\(read.text) \(write.text)")
        #expect(try Self.messages(target) == 1)
        await target.stop()
    }

    @Test func aReplayedSendKeyOfAMember_neverShowsTheMessageToANonMember() async throws {
        // Given ada's message sent under the key "secret"
        let target = try AttackTarget(.embedded)
        let (id, _, _, _, alan) = try await Self.privateConversation(target)

        // When alan replays the same key and body
        let replay = try await target.send(
            .post, "/v1/conversations/\(id)/messages", json: #"{"text": "for grace only"}"#, token: alan,
            key: "secret")

        // Then he is refused, and sees no recorded answer
        #expect(replay.status == 403)
        #expect(replay.headers["Idempotent-Replayed"] == nil)
        #expect(!replay.text.contains("dm"))
        await target.stop()
    }

    @Test func tooManyMembers_forgedMemberIDs_andUnknownAccounts_areRefused() async throws {
        let target = try AttackTarget(.embedded)
        let ada = target.backend.testToken(forHandle: "ada")
        let limit = MessageLimits.membersPerConversation
        func start(_ members: [String]) async throws -> Response {
            let body = JSONValue.object(["members": .array(members.map { .string($0) })]).serialized()
            return try await target.send(
                .post, "/v1/conversations", json: String(decoding: body, as: UTF8.self), token: ada)
        }
        // (listing oneself and a member twice does not count them twice)
        let atLimit = try await start(["u1", "u2"] + (2...limit).map { "u\($0)" })
        let overLimit = try await start((2...(limit + 1)).map { "u\($0)" })
        let enormous = try await start(Array(repeating: "u2", count: 10_000))
        let alone = try await start(["u1"])
        let forged = try await start(["u02"])
        let notAString = try await target.send(
            .post, "/v1/conversations", json: #"{"members": [2]}"#, token: ada)
        let unknown = try await start(["u99999"])

        #expect(atLimit.status == 201, "\(atLimit.text)")
        guard case .array(let members) = atLimit.json["conversation", "members"] else {
            Issue.record("no members: \(atLimit.text)")
            return
        }
        #expect(members.count == limit)
        #expect(overLimit.status == 400)
        #expect(overLimit.errorCode == "too_many_members")
        #expect(enormous.errorCode == "too_many_members")
        #expect(alone.errorCode == "too_few_members")
        #expect([forged.status, notAString.status, unknown.status] == [400, 400, 404] as [Int])
        #expect(try Self.conversations(target) == 1)
        await target.stop()
    }

    @Test func anOversizeMessage_isRefused_andNothingIsStored() async throws {
        let target = try AttackTarget(.embedded)
        let (id, _, ada, _, _) = try await Self.privateConversation(target)
        let over = String(repeating: "a", count: MessageLimits.textCharacters + 1)
        let atLimit = String(repeating: "a", count: MessageLimits.textCharacters)
        let bytes = String(repeating: "a", count: PostLimits.textBytes + 1)
        func say(_ text: String, _ key: String) async throws -> Response {
            try await target.send(
                .post, "/v1/conversations/\(id)/messages", json: #"{"text": "\#(text)"}"#, token: ada,
                key: key)
        }
        let answers = [
            try await say(over, "over"), try await say(bytes, "bytes"), try await say(atLimit, "at"),
        ]
        #expect(answers.map(\.status) == [400, 400, 201] as [Int])
        #expect(answers[0].errorCode == "invalid_body")
        #expect(try Self.messages(target) == 2)
        await target.stop()
    }

    static func messages(_ target: AttackTarget) throws -> Int {
        try target.backend.database.queryFirst("SELECT COUNT(*) FROM messages") { try $0.int(0) } ?? -1
    }

    static func conversations(_ target: AttackTarget) throws -> Int {
        try target.backend.database.queryFirst("SELECT COUNT(*) FROM conversations") { try $0.int(0) } ?? -1
    }
}
