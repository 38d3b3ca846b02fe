@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

@Suite struct APIClientTests {
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
            _ = try await fixture.client.send(.post(text: "lost", attachments: []), clientToken: "x")
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
        _ = try await fixture.client.send(.unlike(post), clientToken: "reset")
        let before = try await fixture.client.post(post).facts[post]?.likeCount ?? -1
        fixture.transport.injectFaults([.dropResponseAfterApply])

        // When the client sees a timeout and retries with the same token
        var first: TransportError?
        do { _ = try await fixture.client.send(.like(post), clientToken: "once") } catch { first = error }
        let retry = try await fixture.client.send(.like(post), clientToken: "once")

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
        let grace = fixture.client.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        _ = try await grace.send(.reply(to: "m1", text: "@ada look", attachments: []), clientToken: "g1")
        let events = try await poll.value.payload.events
        #expect(events.map(\.kind).contains(.mention))
        #expect(events.first?.actor.handle == "grace")
    }
}

@Suite struct SessionTests {
    /// A client on a seeded backend in demo mode whose tokens live `tokenLifetime`.
    static func demoBackend(tokenLifetime: Duration = .seconds(3600)) throws -> (
        APIClient, BackendServer, ManualClock
    ) {
        let clock = ManualClock()
        let server = try BackendServer.seededCopy(
            clock: clock, demoMode: true,
            sessionPolicy: BackendServer.SessionPolicy(tokenLifetime: tokenLifetime))
        return (
            APIClient(transport: EmbeddedTransport(server: server), credentials: nil, clock: clock), server,
            clock
        )
    }

    static func refusal(_ body: () async throws -> Void) async -> TransportError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? TransportError
        }
    }

    @Test func signIn_needsTheAccountsPassword_seedAccountsShareTheDemoOne() async throws {
        let (anonymous, server, _) = try Self.demoBackend()
        defer { server.close() }
        let grace = try await anonymous.signIn(handle: "grace", password: DemoAccounts.password)
        #expect(grace.payload.user.handle == "grace")
        #expect(grace.payload.token.hasPrefix("tok_") && grace.payload.renewToken.hasPrefix("ren_"))
        let me = try await anonymous.signedIn(with: Credentials(session: grace.payload)).me()
        #expect(me.payload.user.handle == "grace")
        let wrong = await Self.refusal {
            _ = try await anonymous.signIn(handle: "grace", password: "loom-demo!")
        }
        #expect(wrong?.serverCode == "invalid_credentials")

        let made = try await anonymous.createAccount(
            handle: "zoe", displayName: "Zoe", password: "zoe-password", clientToken: "s1")
        let again = try await anonymous.signIn(handle: "zoe", password: "zoe-password")
        #expect(again.payload.user.id == made.payload.user.id)
        #expect(again.payload.token != made.payload.token, "every sign-in is a new session")
        let demo = await Self.refusal {
            _ = try await anonymous.signIn(handle: "zoe", password: DemoAccounts.password)
        }
        #expect(demo?.serverCode == "invalid_credentials")
    }

    @Test func signInAsAnUnknownHandle_isNotFound() async throws {
        let (anonymous, server, _) = try Self.demoBackend()
        defer { server.close() }
        let error = await Self.refusal {
            _ = try await anonymous.signIn(handle: "nobody", password: "whatever1")
        }
        #expect(error?.errorClass == .notFound)
    }

    @Test func demoAccount_offDemoMode_isRefusedWithItsCode() async throws {
        let fixture = try NetworkFixture()
        let error = await Self.refusal {
            _ = try await fixture.client.signedIn(as: nil).signIn(
                handle: "grace", password: DemoAccounts.password)
        }
        #expect(error?.errorClass == .forbidden)
        #expect(error?.serverCode == "demo_disabled")
    }

    @Test func expiredToken_isRenewedAgainstTheRealBackend_andSignOutEndsIt() async throws {
        // Given a session whose token lives a minute, and two hours passing
        let (anonymous, server, clock) = try Self.demoBackend(tokenLifetime: .seconds(60))
        defer { server.close() }
        let session = try await anonymous.signIn(handle: "ada", password: DemoAccounts.password).payload
        let credentials = Credentials(session: session, issuedAt: clock.now)
        let client = anonymous.signedIn(with: credentials)
        _ = clock.advance(by: .seconds(7200))

        // When a like is sent, it goes through once, with a renewed token
        let liked = try await client.send(.like("m5"), clientToken: "renewed-like")
        #expect(liked.payload.changed == true)
        #expect(credentials.renewalCount == 1)
        #expect(credentials.token != session.token)
        let old = await Self.refusal { _ = try await anonymous.signedIn(as: session.token).me() }
        #expect(old?.serverCode == "invalid_token", "the rotated token no longer works")

        // And after signing out, the next request says to sign in again, without looping
        try await client.signOut()
        let after = await Self.refusal { _ = try await client.me() }
        #expect(after?.serverCode == "session_ended")
        #expect(credentials.hasEnded)
        #expect(credentials.renewalCount == 1)
    }

    @Test func searchAccounts_sendsTheTextAndLimit_andReadsWhetherTheViewerFollows() async throws {
        // Given ada (the fixture's viewer) and an account named, not handled, "Kai"
        let fixture = try NetworkFixture()
        let anonymous = fixture.client.signedIn(as: nil)
        _ = try await anonymous.createAccount(
            handle: "reef_lee", displayName: "Kai Reef", password: "reef-password", clientToken: "s1")
        let followed = Set(
            try fixture.server.database.query(
                "SELECT u.handle FROM follows f JOIN users u ON u.id = f.followee WHERE f.follower = 1"
            ) { try $0.string(0) })

        // When ada searches for "@Ka", then for two at most
        let found = try await fixture.client.searchAccounts("@Ka").payload.accounts
        let two = try await fixture.client.searchAccounts("ka", limit: 2).payload.accounts

        // Then handles come first, then the name, each saying whether ada follows them
        #expect(found.map(\.user.handle) == ["karen", "katherine", "kathleen", "reef_lee"])
        #expect(found.map(\.viewerFollows) == found.map { Bool?(followed.contains($0.user.handle)) })
        #expect(two.map(\.user.handle) == ["karen", "katherine"])
        #expect(
            try await anonymous.searchAccounts("ka").payload.accounts.allSatisfy { $0.viewerFollows == nil })
        await #expect {
            _ = try await fixture.client.searchAccounts("ka", limit: 51)
        } throws: { error in
            (error as? TransportError)?.errorClass == .badRequest
        }
    }
}
