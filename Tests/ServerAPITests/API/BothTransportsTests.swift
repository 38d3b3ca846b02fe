@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// The transport a scenario runs over: the embedded backend in process, or the same backend
/// served by `HTTPServer` on an ephemeral port and reached through `HTTPTransport`.
enum TransportUnderTest: String, CaseIterable, CustomTestStringConvertible {
    case embedded
    case http

    var testDescription: String { rawValue }

    /// A client signed in as ada on a fresh seeded backend over this transport; call `stop`.
    func client() throws -> (client: APIClient, stop: @Sendable () async -> Void) {
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        switch self {
        case .embedded:
            let client = APIClient(
                transport: EmbeddedTransport(server: backend),
                bearerToken: backend.testToken(forHandle: BackendSeed.firstHandle))
            return (client, { backend.close() })
        case .http:
            let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { await backend.handle($0) }
            // A long timeout: a request held back by a busy machine must not fail the scenario.
            let client = APIClient(
                transport: HTTPTransport(baseURL: server.baseURL, timeout: .seconds(60)),
                bearerToken: backend.testToken(forHandle: BackendSeed.firstHandle))
            return (
                client,
                {
                    _ = await server.shutdown(gracePeriod: .seconds(2))
                    backend.close()
                }
            )
        }
    }
}

/// The API client's scenarios that mean the same over either transport, run once for each: a
/// transport may not change what a request returns or how a refusal is classified.
@Suite struct BothTransportsTests {
    @Test(arguments: TransportUnderTest.allCases)
    func everyReadEndpoint_decodes(over transport: TransportUnderTest) async throws {
        let (client, stop) = try transport.client()
        defer { Task { await stop() } }
        let feed = try await client.homeFeed(limit: 30)
        #expect(feed.payload.entries.count == 30)
        #expect(feed.payload.nextCursor != nil)
        #expect(feed.payload.entries.allSatisfy { feed.facts[$0.media.id] != nil })
        let more = try await client.homeFeed(cursor: feed.payload.nextCursor, limit: 30)
        #expect(more.payload.entries.count == 30)
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
        #expect(events.payload.events.allSatisfy { $0.kind != .unknown($0.kind.name) })
    }

    @Test(arguments: TransportUnderTest.allCases)
    func everyMutation_echoesItsTokenAndTheUpdatedFacts(over transport: TransportUnderTest) async throws {
        let (client, stop) = try transport.client()
        defer { Task { await stop() } }
        let made = try await client.send(.post(text: "over the wire ✓", attachments: []), clientToken: "c1")
        let id = try #require(made.payload.media?.id)
        #expect(made.payload.clientToken == "c1")
        #expect(made.payload.media?.text == "over the wire ✓")
        let reply = try await client.send(.reply(to: id, text: "first!", attachments: []), clientToken: "c2")
        #expect(reply.payload.parentID == id)
        #expect(reply.facts[id]?.replyCount == 1)
        let liked = try await client.send(.like(id), clientToken: "c3")
        #expect(liked.facts[id]?.likeCount == 1)
        #expect(liked.facts[id]?.viewerLiked == true)
        #expect(try await client.send(.unlike(id), clientToken: "c4").facts[id]?.likeCount == 0)
        #expect(try await client.send(.repost(id), clientToken: "c5").payload.reposted == true)
        let unreposted = try await client.send(.unrepost(id), clientToken: "c5u")
        #expect(unreposted.payload.reposted == false)
        #expect(unreposted.payload.changed == true)
        #expect(unreposted.facts[id]?.repostCount == 0)
        #expect(unreposted.facts[id]?.viewerReposted == false)
        #expect(try await client.send(.unfollow("u2"), clientToken: "c6").payload.following == false)
        #expect(try await client.send(.follow("u2"), clientToken: "c7").payload.following == true)
        #expect(try await client.send(.delete(id), clientToken: "c8").payload.deleted == true)

        let anonymous = client.signedIn(as: nil)
        let account = try await anonymous.createAccount(
            handle: "newbie", displayName: "New", password: "newbie-password", clientToken: "c9")
        #expect(try await client.signedIn(as: account.payload.token).me().payload.user.handle == "newbie")
        let again = try await anonymous.signIn(handle: "newbie", password: "newbie-password")
        #expect(again.payload.user.id == account.payload.user.id)
        let renewed = try await anonymous.renewSession(renewToken: again.payload.renewToken)
        #expect(try await client.signedIn(as: renewed.payload.token).me().payload.user.handle == "newbie")
        try await client.signedIn(as: renewed.payload.token).signOut()
        await #expect(throws: TransportError.self) {
            _ = try await client.signedIn(as: renewed.payload.token).me()
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func serverRefusals_areClassifiedForTheCaller(over transport: TransportUnderTest) async throws {
        let (client, stop) = try transport.client()
        defer { Task { await stop() } }
        func refusal(_ body: () async throws -> Void) async -> TransportError? {
            do { try await body() } catch let error as TransportError { return error } catch { return nil }
            return nil
        }
        let notFound = await refusal { _ = try await client.post("m999999") }
        #expect(notFound?.errorClass == .notFound && notFound?.serverCode == "not_found")
        #expect(notFound?.status == 404)
        let unauthorized = await refusal { _ = try await client.signedIn(as: "bogus").homeFeed() }
        #expect(unauthorized?.errorClass == .unauthorized)
        #expect(unauthorized?.disposition == .reauthenticate)
        let forbidden = await refusal { _ = try await client.send(.delete("m2"), clientToken: "d") }
        #expect(forbidden?.errorClass == .forbidden)
        _ = try await client.send(.like("m3"), clientToken: "reused")
        let conflict = await refusal { _ = try await client.send(.like("m4"), clientToken: "reused") }
        #expect(conflict?.errorClass == .conflict && conflict?.serverCode == "client_token_reused")
        let badRequest = await refusal {
            _ = try await client.send(.post(text: " ", attachments: []), clientToken: "empty")
        }
        #expect(badRequest?.errorClass == .badRequest)
        let unknownUser = await refusal { _ = try await client.send(.follow("u9999"), clientToken: "f") }
        #expect(unknownUser?.errorClass == .notFound)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func aRetriedMutation_isReplayedWithItsFirstAnswer(over transport: TransportUnderTest) async throws {
        let (client, stop) = try transport.client()
        defer { Task { await stop() } }
        let first = try await client.send(.like("m7"), clientToken: "twice")
        let second = try await client.send(.like("m7"), clientToken: "twice")
        #expect(!first.payload.replayed)
        #expect(second.payload.replayed)
        #expect(second.facts["m7"]?.likeCount == first.facts["m7"]?.likeCount)
    }
}
