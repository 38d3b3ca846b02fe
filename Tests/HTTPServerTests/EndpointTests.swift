import Backend
import Foundation
import HTTPServer
import MediaModel
import Networking
import Testing
import Wire

/// Every backend endpoint over real HTTP: `HTTPServer` serving `BackendServer.handle` on an
/// ephemeral port, reached through `HTTPTransport` and the typed `APIClient`.
@Suite struct EndpointTests {
    @Test func everyReadEndpoint_decodesOverHTTP() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let feed = try await client.homeFeed(limit: 30)
        #expect(feed.payload.entries.count == 30)
        #expect(feed.payload.entries.allSatisfy { feed.facts[$0.media.id] != nil })
        let more = try await client.homeFeed(cursor: feed.payload.nextCursor, limit: 30)
        #expect(Set(more.payload.entries.map(\.id)).isDisjoint(with: feed.payload.entries.map(\.id)))

        let reply = try #require(
            feed.payload.entries.first { if case .reply = $0.context { true } else { false } })
        let thread = try await client.thread(reply.media.id)
        #expect(thread.payload.post == reply.media)
        #expect(!thread.payload.ancestors.isEmpty)
        #expect(try await client.post(reply.media.id).payload == reply.media)

        let me = try await client.me(limit: 5)
        #expect(me.payload.user.handle == "ada")
        #expect(me.payload.isViewer)
        let profile = try await client.profile("u2", limit: 5)
        #expect(profile.payload.user.handle == "grace")
        #expect(profile.payload.posts.entries.count == 5)

        let accounts = try await client.signedIn(as: nil).accounts()
        #expect(accounts.payload.accounts.count == BackendSeed.userCount)
        let events = try await client.events(limit: 10)
        #expect(events.payload.events.count == 10)
        await fixture.stop()
    }

    @Test func everyMutation_isAppliedOverHTTP() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let made = try await client.createPost(text: "over the wire ✓", clientToken: "h1")
        let id = try #require(made.payload.media?.id)
        #expect(made.payload.media?.text == "over the wire ✓")
        let reply = try await client.reply(to: id, text: "first!", clientToken: "h2")
        #expect(reply.payload.parentID == id)
        #expect(reply.facts[id]?.replyCount == 1)
        #expect(try await client.like(id, clientToken: "h3").facts[id]?.likeCount == 1)
        #expect(try await client.unlike(id, clientToken: "h4").facts[id]?.likeCount == 0)
        #expect(try await client.repost(id, clientToken: "h5").payload.reposted == true)
        #expect(try await client.unfollow("u2", clientToken: "h6").payload.following == false)
        #expect(try await client.follow("u2", clientToken: "h7").payload.following == true)
        #expect(try await client.deletePost(id, clientToken: "h8").payload.deleted == true)

        let anonymous = client.signedIn(as: nil)
        let account = try await anonymous.createAccount(
            handle: "wired", displayName: "Wired", clientToken: "h9")
        #expect(try await client.signedIn(as: account.payload.token).me().payload.user.handle == "wired")
        let session = try await anonymous.signIn(handle: "wired")
        #expect(session.payload.token == account.payload.token)
        await fixture.stop()
    }

    @Test func aRetriedMutation_isReplayedWithItsFirstAnswer() async throws {
        let fixture = try ServerFixture()
        let first = try await fixture.client.like("m7", clientToken: "twice")
        let second = try await fixture.client.like("m7", clientToken: "twice")
        #expect(!first.payload.replayed)
        #expect(second.payload.replayed)
        #expect(second.facts["m7"]?.likeCount == first.facts["m7"]?.likeCount)
        await fixture.stop()
    }

    @Test func serverRefusals_areClassifiedAsInProcess() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        func refusal(_ body: () async throws -> Void) async -> TransportError? {
            do { try await body() } catch let error as TransportError { return error } catch { return nil }
            return nil
        }
        let notFound = await refusal { _ = try await client.post("m999999") }
        #expect(notFound?.errorClass == .notFound && notFound?.serverCode == "not_found")
        #expect(notFound?.status == 404)
        let unauthorized = await refusal { _ = try await client.signedIn(as: "bogus").homeFeed() }
        #expect(unauthorized?.errorClass == .unauthorized)
        let forbidden = await refusal { _ = try await client.deletePost("m2", clientToken: "d") }
        #expect(forbidden?.errorClass == .forbidden)
        _ = try await client.like("m3", clientToken: "reused")
        let conflict = await refusal { _ = try await client.like("m4", clientToken: "reused") }
        #expect(conflict?.errorClass == .conflict && conflict?.serverCode == "client_token_reused")
        let badRequest = await refusal { _ = try await client.createPost(text: " ", clientToken: "empty") }
        #expect(badRequest?.errorClass == .badRequest)
        await fixture.stop()
    }

    @Test func theBearerToken_selectsTheViewer() async throws {
        let fixture = try ServerFixture()
        let grace = fixture.client.signedIn(as: BackendSeed.token(forHandle: "grace"))
        #expect(try await grace.me().payload.user.handle == "grace")
        #expect(try await fixture.client.me().payload.user.handle == "ada")
        await fixture.stop()
    }

    @Test func anUnknownMethod_isAnsweredByTheHandlerWith405() async throws {
        let fixture = try ServerFixture()
        let raw = try fixture.raw()
        raw.send("PATCH /v1/feed HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let response = try await raw.readResponse()
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET")
        #expect(response.errorCode == "method_not_allowed")
        await fixture.stop()
    }

    @Test func aLongPoll_returnsWhenAnEventArrives() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let start = try await client.events(after: "latest")
        let poll = Task { try await client.events(after: start.payload.nextCursor, wait: 20) }
        // Give the poll time to reach the server, then make an event for ada.
        #expect(await eventually { fixture.server.statistics.requests >= 2 })
        let grace = client.signedIn(as: BackendSeed.token(forHandle: "grace"))
        _ = try await grace.reply(to: "m1", text: "@ada over http", clientToken: "g1")
        let events = try await poll.value.payload.events
        #expect(events.map(\.kind).contains(.mention))
        #expect(events.first?.actor.handle == "grace")
        await fixture.stop()
    }
}
