import Backend
import Foundation
import MediaModel
import Networking
import Storage
import Testing
import Wire

@Suite struct APIClientTests {
    @Test func everyReadEndpoint_decodesThroughTheEmbeddedTransport() async throws {
        let fixture = try NetworkFixture()
        let client = fixture.client
        let feed = try await client.homeFeed(limit: 30)
        #expect(feed.payload.entries.count == 30)
        #expect(feed.payload.nextCursor != nil)
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
        #expect(events.payload.events.allSatisfy { $0.kind != .unknown($0.kind.name) })
    }

    @Test func everyMutation_echoesItsTokenAndTheUpdatedFacts() async throws {
        let fixture = try NetworkFixture()
        let client = fixture.client
        let made = try await client.createPost(text: "from the client", clientToken: "c1")
        let id = try #require(made.payload.media?.id)
        #expect(made.payload.clientToken == "c1")
        let reply = try await client.reply(to: id, text: "first!", clientToken: "c2")
        #expect(reply.payload.parentID == id)
        #expect(reply.facts[id]?.replyCount == 1)
        let liked = try await client.like(id, clientToken: "c3")
        #expect(liked.facts[id]?.likeCount == 1)
        #expect(liked.facts[id]?.viewerLiked == true)
        #expect(try await client.unlike(id, clientToken: "c4").facts[id]?.likeCount == 0)
        #expect(try await client.repost(id, clientToken: "c5").payload.reposted == true)
        #expect(try await client.unfollow("u2", clientToken: "c6").payload.following == false)
        #expect(try await client.follow("u2", clientToken: "c7").payload.following == true)
        #expect(try await client.deletePost(id, clientToken: "c8").payload.deleted == true)
        let account = try await client.signedIn(as: nil).createAccount(
            handle: "newbie", displayName: "New", clientToken: "c9")
        #expect(try await client.signedIn(as: account.payload.token).me().payload.user.handle == "newbie")
    }

    @Test func latency_isSleptOnTheManualClock() async throws {
        // Given 1.5 s of latency on every request
        let fixture = try NetworkFixture(
            profile: FaultProfile(name: "slow", latency: .fixed(.milliseconds(1500))))
        let client = fixture.client
        let request = Task { try await client.homeFeed(limit: 5) }

        // When time has not moved, nothing arrives; once it has, the page does
        await fixture.clock.waitForSleepers(1)
        #expect(fixture.clock.advance(by: .milliseconds(1499)) == 0)
        #expect(fixture.transport.statistics.delivered == 0)
        #expect(fixture.clock.advance(by: .milliseconds(1)) == 1)
        let page = try await request.value
        #expect(page.payload.entries.count == 5)
        #expect(fixture.transport.statistics.delivered == 1)
    }

    @Test func serverErrors_areRetryableAndNeverReachTheServer() async throws {
        let fixture = try NetworkFixture(profile: FaultProfile(name: "down", failureRate: 1))
        let posts = try fixture.server.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) }
        do {
            _ = try await fixture.client.createPost(text: "lost", clientToken: "x")
            Issue.record("a 503 was not an error")
        } catch {
            #expect(error.errorClass == .serverError)
            #expect(error.status == 503)
            #expect(error.serverCode == "injected_fault")
            #expect(error.isRetryable)
        }
        #expect(try fixture.server.database.query("SELECT COUNT(*) FROM posts") { try $0.int(0) } == posts)
    }

    @Test func droppedResponse_thenRetry_isAppliedOnceAndMarkedReplayed() async throws {
        // Given a like whose response is lost after the server applied it
        let fixture = try NetworkFixture()
        let post: MediaID = "m2000"
        _ = try await fixture.client.unlike(post, clientToken: "reset")
        let before = try await fixture.client.post(post).facts[post]?.likeCount ?? -1
        fixture.transport.injectFaults([.dropResponseAfterApply])

        // When the client sees a timeout and retries with the same token
        var first: TransportError?
        do { _ = try await fixture.client.like(post, clientToken: "once") } catch { first = error }
        let retry = try await fixture.client.like(post, clientToken: "once")

        // Then the server applied it once and the retry carries the first attempt's answer
        #expect(first?.errorClass == .timeout)
        #expect(first?.isRetryable == true)
        #expect(retry.payload.replayed)
        #expect(retry.payload.clientToken == "once")
        #expect(retry.facts[post]?.likeCount == before + 1)
        #expect(try await fixture.client.post(post).facts[post]?.likeCount == before + 1)
    }

    @Test func offline_failsAtOnceAndRecoversWhenTheProfileChanges() async throws {
        let fixture = try NetworkFixture(profile: .offline)
        await #expect {
            try await fixture.client.homeFeed()
        } throws: { error in
            (error as? TransportError)?.errorClass == .offline
                && (error as? TransportError)?.isRetryable == true
        }
        fixture.transport.setFaultProfile(.perfect)
        #expect(try await fixture.client.homeFeed(limit: 3).payload.entries.count == 3)
    }

    @Test func rateLimited_carriesTheRetryAfterDelay() async throws {
        let fixture = try NetworkFixture()
        fixture.transport.injectFaults([.rateLimited(retryAfter: .seconds(42))])
        do {
            _ = try await fixture.client.homeFeed()
            Issue.record("a 429 was not an error")
        } catch {
            #expect(error.errorClass == .rateLimited)
            #expect(error.retryAfter == .seconds(42))
            #expect(error.disposition == .retry)
        }
    }

    @Test func serverRefusals_areClassifiedForTheCaller() async throws {
        let fixture = try NetworkFixture()
        let client = fixture.client
        func errorClass(_ body: () async throws -> Void) async -> (ErrorClass, String?)? {
            do { try await body() } catch let error as TransportError {
                return (error.errorClass, error.serverCode)
            } catch {
                return nil
            }
            return nil
        }
        let notFound = await errorClass { _ = try await client.post("m999999") }
        #expect(notFound?.0 == .notFound && notFound?.1 == "not_found")
        let unauthorized = await errorClass { _ = try await client.signedIn(as: "bogus").homeFeed() }
        #expect(unauthorized?.0 == .unauthorized)
        #expect(ErrorClass.unauthorized.disposition == .reauthenticate)
        let forbidden = await errorClass { _ = try await client.deletePost("m2", clientToken: "d") }
        #expect(forbidden?.0 == .forbidden)
        _ = try await client.like("m3", clientToken: "reused")
        let conflict = await errorClass { _ = try await client.like("m4", clientToken: "reused") }
        #expect(conflict?.0 == .conflict && conflict?.1 == "client_token_reused")
        let badRequest = await errorClass { _ = try await client.createPost(text: " ", clientToken: "empty") }
        #expect(badRequest?.0 == .badRequest)
        let unknownUser = await errorClass { _ = try await client.follow("u9999", clientToken: "f") }
        #expect(unknownUser?.0 == .notFound)
    }

    @Test func anUnreadableSuccessfulResponse_isADecodingError() async throws {
        let transport = ScriptedTransport { _ in
            Response(status: 200, body: Data(#"{"version": 1, "page": {"entries": 4}}"#.utf8))
        }
        let client = APIClient(transport: transport, bearerToken: "t")
        do {
            _ = try await client.homeFeed()
            Issue.record("a malformed page decoded")
        } catch {
            #expect(error.errorClass == .decoding)
            #expect(
                error.detail
                    == "the page document could not be read: page.entries: expected an array, found 4")
            #expect(!error.isRetryable)
        }
    }

    @MainActor
    @Test func requestsAndDecoding_runOffTheMainActor() async throws {
        let fixture = try NetworkFixture()
        let transport = ScriptedTransport { _ in
            Response(
                status: 200, body: WireFormat.encode(FeedPageEnvelope(FeedPage(entries: Samples.everyShape))))
        }
        let client = APIClient(transport: transport, bearerToken: "t", clock: fixture.clock)
        let page = try await client.homeFeed()
        #expect(page.payload.entries == Samples.everyShape)
        #expect(transport.ranOnMainThread == [false])
    }

    @Test func longPolledEvents_arriveWhenTheyHappen() async throws {
        let fixture = try NetworkFixture()
        let start = try await fixture.client.events(after: "latest")
        let poll = Task { try await fixture.client.events(after: start.payload.nextCursor, wait: 30) }
        await fixture.clock.waitForSleepers(1)
        let grace = fixture.client.signedIn(as: BackendSeed.token(forHandle: "grace"))
        _ = try await grace.reply(to: "m1", text: "@ada look", clientToken: "g1")
        let events = try await poll.value.payload.events
        #expect(events.map(\.kind).contains(.mention))
        #expect(events.first?.actor.handle == "grace")
    }
}

@Suite struct SessionTests {
    @Test func signIn_returnsTheAccountsTokenForSeedAndNewAccounts() async throws {
        let fixture = try NetworkFixture()
        let anonymous = fixture.client.signedIn(as: nil)
        let grace = try await anonymous.signIn(handle: "grace")
        #expect(grace.payload.user.handle == "grace")
        #expect(try await anonymous.signedIn(as: grace.payload.token).me().payload.user.handle == "grace")

        let made = try await anonymous.createAccount(handle: "zoe", displayName: "Zoe", clientToken: "s1")
        #expect(try await anonymous.signIn(handle: "zoe").payload.token == made.payload.token)
    }

    @Test func signInAsAnUnknownHandle_isNotFound() async throws {
        let fixture = try NetworkFixture()
        await #expect {
            _ = try await fixture.client.signedIn(as: nil).signIn(handle: "nobody")
        } throws: { error in
            (error as? TransportError)?.errorClass == .notFound
        }
    }
}
