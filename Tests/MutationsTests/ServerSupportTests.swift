@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

/// The server-side support the manager relies on: posts carry their client token on every list,
/// and facts say whether the viewer reposted.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct ServerSupportTests {
    @Test func aPostMadeWithAToken_carriesItInTheFeedAndTheThread_andInItsOwnColumn() async throws {
        let fixture = try NetworkFixture()

        let made = try await fixture.client.send(
            .post(text: "tokened", attachments: []), clientToken: "tok-1")
        let reply = try await fixture.client.send(
            .reply(to: "m7", text: "r", attachments: []), clientToken: "tok-2")
        let feed = try await fixture.client.homeFeed(limit: 5)
        let thread = try await fixture.client.thread("m7", limit: 100)

        #expect(made.payload.media?.clientToken == "tok-1")
        #expect(
            feed.payload.entries.first { $0.media.id == made.payload.media?.id }?.media.clientToken == "tok-1"
        )
        #expect(
            thread.payload.replies.entries.first { $0.media.id == reply.payload.media?.id }?.media.clientToken
                == "tok-2")
        let count = try fixture.server.database.query(
            "SELECT COUNT(*) FROM posts WHERE client_token = ?", "tok-1"
        ).first?.int(0)
        #expect(count == 1)
    }

    @Test func facts_sayWhetherTheViewerReposted() async throws {
        let fixture = try NetworkFixture()
        let before = try await fixture.client.post("m7").facts["m7"]

        let reposted = try await fixture.client.send(.repost("m7"), clientToken: "rp-1")

        #expect(before?.viewerReposted == false)
        #expect(reposted.facts["m7"]?.viewerReposted == true)
        #expect(reposted.facts["m7"]?.repostCount == (before?.repostCount ?? 0) + 1)
        #expect(try await fixture.client.post("m7").facts["m7"]?.viewerReposted == true)
    }

    @Test func theNewWireFields_roundTrip_andAreLeftOutWhenAbsent() throws {
        let author = User(id: "u1", handle: "ada", displayName: "Ada")
        let media = Media(
            id: "m1", author: author, createdAt: Date(timeIntervalSince1970: 1), text: "x", clientToken: "c")
        let plain = Media(id: "m2", author: author, createdAt: Date(timeIntervalSince1970: 1), text: "x")
        let facts = MediaFacts(likeCount: 1, repostCount: 2, viewerReposted: true)

        #expect(try Media(json: media.json, at: .root) == media)
        #expect(try MediaFacts(json: facts.json, at: .root) == facts)
        guard case .object(let fields) = plain.json, case .object(let factFields) = MediaFacts().json else {
            Issue.record("not objects")
            return
        }
        #expect(fields["clientToken"] == nil)
        #expect(factFields["viewerReposted"] == nil)
    }
}
