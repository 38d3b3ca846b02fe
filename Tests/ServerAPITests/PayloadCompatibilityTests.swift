import Foundation
import MediaModel
import Mutations
import NetworkingTesting
import ServerAPI
import Testing
import Wire

@Suite struct PayloadCompatibilityTests {
    @Test func everyPayload_roundTripsThroughItsWireForm() throws {
        let page = FeedPage(entries: Array(Samples.everyShape.prefix(3)), nextCursor: "t:1.2")
        let media = Samples.media("m1")
        let event = ActivityEvent(
            id: "ev1", kind: .like, actor: Samples.grace, media: media, createdAt: media.createdAt)
        try roundTrip(ThreadPage(ancestors: [media], post: Samples.media("m2"), replies: page))
        try roundTrip(
            Profile(
                user: Samples.ada, followerCount: 3, followingCount: 4, postCount: 5, viewerFollows: true,
                isViewer: false, posts: page))
        try roundTrip(
            AccountList(accounts: [
                AccountSummary(user: Samples.ada, followingCount: 20, followerCount: 7, postCount: 31),
                AccountSummary(
                    user: Samples.ada, followingCount: 1, followerCount: 2, postCount: 3, viewerFollows: true),
            ]))
        let session = Session(
            user: Samples.ada, token: "tok_1", expiresAt: Date(timeIntervalSince1970: 1_764_000_000),
            renewToken: "ren_1", renewExpiresAt: Date(timeIntervalSince1970: 1_766_600_000))
        try roundTrip(session)
        try roundTrip(CreatedAccount(session: session, clientToken: "c"))
        try roundTrip(
            AccountList(
                accounts: [
                    AccountSummary(
                        user: Samples.ada, followingCount: 1, followerCount: 2, postCount: 3, isDemo: true)
                ], demoMode: true))
        try roundTrip(
            EventPage(
                events: [
                    event,
                    ActivityEvent(id: "ev2", kind: .follow, actor: Samples.ada, createdAt: media.createdAt),
                ], nextCursor: "e:2"))
        try roundTrip(
            MutationResult(
                clientToken: "t", media: media, mediaID: "m1", parentID: "m0", userID: "u2", entryID: "r1",
                changed: true,
                liked: true, reposted: false, deleted: false, following: true, followerCount: 9,
                followingCount: 8))
    }

    private func roundTrip<Payload: WirePayload>(_ payload: Payload) throws {
        let envelope = WireEnvelope(payload, facts: ["m1": MediaFacts(likeCount: 2, replyCount: 1)])
        let decoded = try WireFormat.decode(Payload.self, from: WireFormat.encode(envelope))
        #expect(decoded == envelope, "\(Payload.self) did not round-trip")
    }

    @Test func unknownFieldsAndEventKinds_areToleratedNeverErrors() throws {
        let json = """
            {"version": 1, "futureField": [1, 2], "events": {"items": [
              {"id": "ev7", "kind": "boost", "createdAt": 1714564800000, "sparkle": true,
               "actor": {"id": "u2", "handle": "grace", "displayName": "Grace", "mood": "happy"}}],
             "nextCursor": "e:7", "extra": {}}}
            """
        let page = try WireFormat.decode(EventPage.self, from: Data(json.utf8)).payload
        #expect(page.events.first?.kind == .unknown("boost"))
        #expect(page.events.first?.kind.name == "boost")
        #expect(page.events.first?.media == nil)
        #expect(page.nextCursor == "e:7")
    }

    @Test(arguments: [
        (#"{"version": 1, "thread": {"ancestors": []}}"#, "thread.post: required field is missing"),
        (
            #"{"version": 1, "profile": {"user": {"id": "u1", "handle": "a", "displayName": "A"}, "followerCount": "many", "followingCount": 1, "postCount": 1}}"#,
            #"profile.followerCount: expected a number, found "many""#
        ),
        (#"{"version": 1, "accounts": {}}"#, "accounts.items: required field is missing"),
        (
            #"{"version": 1, "mutation": {"changed": true}}"#,
            "mutation.clientToken: required field is missing"
        ),
        (
            #"{"version": 1, "events": {"items": [{"id": 3}], "nextCursor": "e:1"}}"#,
            "events.items[0].id: expected a string, found 3"
        ),
        (
            #"{"version": 2, "account": {}}"#,
            "version: unsupported wire format version 2; this build reads versions up to 1; update the app to read this document"
        ),
    ])
    func malformedPayload_isAnErrorNamingTheFieldPath(json: String, message: String) {
        func decode() throws {
            if json.contains("\"thread\"") {
                _ = try WireFormat.decode(ThreadPage.self, from: Data(json.utf8))
            }
            if json.contains("\"profile\"") { _ = try WireFormat.decode(Profile.self, from: Data(json.utf8)) }
            if json.contains("\"accounts\"") {
                _ = try WireFormat.decode(AccountList.self, from: Data(json.utf8))
            }
            if json.contains("\"mutation\"") {
                _ = try WireFormat.decode(MutationResult.self, from: Data(json.utf8))
            }
            if json.contains("\"events\"") {
                _ = try WireFormat.decode(EventPage.self, from: Data(json.utf8))
            }
            if json.contains("\"account\"") {
                _ = try WireFormat.decode(CreatedAccount.self, from: Data(json.utf8))
            }
        }
        #expect {
            try decode()
        } throws: { error in
            (error as? WireFormatError)?.description == message
        }
    }
}
