import Foundation
import MediaModel
import ServerAPI
import Synchronization
import Testing
import Wire

@Suite struct CredentialsTests {
    /// A client signed in on `server` whose credentials record every change they report.
    private func signedIn(_ server: SessionServer) -> (APIClient, Credentials, ChangeLog) {
        let changes = ChangeLog()
        let credentials = Credentials(session: server.issue(), issuedAt: server.clock.now) { change in
            changes.entries.withLock { $0.append(change) }
        }
        let client = APIClient(transport: server, credentials: credentials, clock: server.clock)
        return (client, credentials, changes)
    }

    @Test func expiredToken_isRenewedFirstAndTheNewPairSaved() async throws {
        // Given a signed-in client whose token has expired (the clock moved two hours)
        let server = SessionServer()
        let (client, credentials, changes) = signedIn(server)
        _ = server.clock.advance(by: .seconds(7200))

        // When it makes a request
        _ = try await client.accounts()

        // Then the pair was renewed once, saved, and the request went out with the new token
        #expect(server.log == ["POST /v1/sessions/renew -", "GET /v1/accounts tok_2"])
        #expect(credentials.renewalCount == 1)
        #expect(credentials.token == "tok_2")
        let saved = changes.all
        #expect(saved.count == 1)
        guard case .renewed(let session) = saved.first else {
            Issue.record("no renewed pair was handed over: \(saved)")
            return
        }
        #expect(session.token == "tok_2")
        #expect(session.renewToken == "ren_2")
    }

    @Test func tokenWithinTheMargin_isRenewedBeforeItExpires_butNotEarlier() async throws {
        let server = SessionServer()
        let (client, credentials, _) = signedIn(server)

        // Two minutes before expiry nothing is renewed
        _ = server.clock.advance(by: .seconds(3600 - 120))
        _ = try await client.accounts()
        #expect(credentials.renewalCount == 0)

        // Thirty seconds before, the request renews first
        _ = server.clock.advance(by: .seconds(90))
        _ = try await client.accounts()
        #expect(credentials.renewalCount == 1)
        #expect(server.log.last == "GET /v1/accounts tok_2")
    }

    @Test func refusedToken_renewsAndSendsTheRequestAgainOnce() async throws {
        // Given a token the server stopped accepting before the client expected (invalid_token)
        let server = SessionServer()
        let (client, credentials, _) = signedIn(server)
        server.state.withLock { $0.tokens["tok_1"] = nil }

        // When a request is made
        _ = try await client.accounts()

        // Then it was refused, the pair renewed, and the request sent again with the new token
        #expect(
            server.log == [
                "GET /v1/accounts tok_1", "POST /v1/sessions/renew -", "GET /v1/accounts tok_2",
            ])
        #expect(credentials.renewalCount == 1)
    }

    @Test(arguments: [false, true])
    func concurrentRequests_shareOneRenewal(serverRefusedFirst: Bool) async throws {
        // Given ten requests made at once with a stale token (known expired, or refused by the
        // server), while the renewal takes a while
        let server = SessionServer(renewDelay: .milliseconds(50))
        let (client, credentials, _) = signedIn(server)
        if serverRefusedFirst {
            server.state.withLock { $0.tokens["tok_1"] = nil }
        } else {
            _ = server.clock.advance(by: .seconds(7200))
        }

        // When they run concurrently
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try await client.accounts() } }
            try await group.waitForAll()
        }

        // Then exactly one renewal was made and every request succeeded with its token
        #expect(server.renewals == 1)
        #expect(credentials.renewalCount == 1)
        #expect(server.log.filter { $0.hasPrefix("POST /v1/sessions/renew") }.count == 1)
        #expect(server.log.filter { $0 == "GET /v1/accounts tok_2" }.count == 10)
    }

    @Test func refusedRenewal_endsTheCredentials_withoutLooping() async throws {
        // Given an expired token whose renew token the server refuses (revoked)
        let server = SessionServer()
        let (client, credentials, changes) = signedIn(server)
        server.state.withLock { $0.refuseRenewals = true }
        _ = server.clock.advance(by: .seconds(7200))

        // When two requests are made, one after the other
        var errors: [TransportError] = []
        for _ in 0..<2 {
            do {
                _ = try await client.accounts()
                Issue.record("a request succeeded with ended credentials")
            } catch { errors.append(error) }
        }

        // Then both say to sign in again, the end was reported once, and only one renewal was tried
        #expect(errors.map(\.errorClass) == [.unauthorized, .unauthorized])
        #expect(errors.map(\.serverCode) == ["session_ended", "session_ended"])
        #expect(errors.first?.description.contains("sign in again") == true)
        #expect(credentials.hasEnded)
        #expect(changes.all == [.ended])
        #expect(server.log == ["POST /v1/sessions/renew -"])
    }

    @Test func offlineRenewal_isNotTheEnd() async throws {
        // Given an expired token and a renewal that cannot reach the server
        let server = SessionServer()
        let (_, credentials, changes) = signedIn(server)
        _ = server.clock.advance(by: .seconds(7200))
        let offline = APIClient(transport: OfflineTransport(), credentials: credentials, clock: server.clock)

        // When a request fails offline
        do {
            _ = try await offline.accounts()
            Issue.record("an offline request succeeded")
        } catch {
            #expect(error.errorClass == .offline)
        }

        // Then the credentials still hold their pair, and renew once the server answers again
        #expect(!credentials.hasEnded)
        #expect(changes.all.isEmpty)
        let online = APIClient(transport: server, credentials: credentials, clock: server.clock)
        _ = try await online.accounts()
        #expect(credentials.renewalCount == 1)
    }

    @Test func bareToken_isNeverRenewed() async throws {
        let server = SessionServer()
        let client = APIClient(transport: server, bearerToken: "tok_bogus", clock: server.clock)
        await #expect(throws: TransportError.self) { _ = try await client.accounts() }
        #expect(server.log == ["GET /v1/accounts tok_bogus"])
    }

    @Test func signOut_sendsTheTokenToTheSessionsRoute() async throws {
        let server = SessionServer()
        let (client, _, _) = signedIn(server)
        try await client.signOut()
        #expect(server.log == ["DELETE /v1/sessions/current tok_1"])
        await #expect(throws: TransportError.self) {
            _ = try await client.signedIn(as: "tok_1").accounts()
        }
    }

    @Test func signInAndRenew_carryNoBearerToken_andTheirCredentialsInTheBody() async throws {
        let recorder = RecordingTransport()
        let (client, _, _) = signedIn(SessionServer())
        let anonymous = APIClient(transport: recorder, credentials: client.credentials)
        _ = try? await anonymous.signIn(handle: "ada", password: "loom-demo")
        _ = try? await anonymous.renewSession(renewToken: "ren_9")
        _ = try? await anonymous.createAccount(
            handle: "zoe", displayName: "Zoe", password: "hunter22!", clientToken: "k1")
        let requests = recorder.requests.withLock { $0 }
        #expect(requests.map(\.path) == ["/v1/sessions", "/v1/sessions/renew", "/v1/accounts"])
        #expect(requests.allSatisfy { $0.headers["Authorization"] == nil })
        let bodies = requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies[0].contains("\"password\":\"loom-demo\""))
        #expect(bodies[1].contains("\"renewToken\":\"ren_9\""))
        #expect(bodies[2].contains("\"password\":\"hunter22!\""))
    }

    @Test func session_requiresItsRenewTokenAndTimes() throws {
        let full = """
            {"version": 1, "session": {"user": {"id": "u1", "handle": "ada", "displayName": "Ada"},
             "token": "tok_a", "expiresAt": 1764000000000, "renewToken": "ren_a",
             "renewExpiresAt": 1766600000000}}
            """
        let session = try WireFormat.decode(Session.self, from: Data(full.utf8)).payload
        #expect(session.renewToken == "ren_a")
        #expect(session.expiresAt == Date(timeIntervalSince1970: 1_764_000_000))
        #expect(session.renewExpiresAt == Date(timeIntervalSince1970: 1_766_600_000))

        let old = """
            {"version": 1, "session": {"user": {"id": "u1", "handle": "ada", "displayName": "Ada"},
             "token": "seed-ada"}}
            """
        #expect(throws: WireFormatError.self) {
            _ = try WireFormat.decode(Session.self, from: Data(old.utf8))
        }
    }

    @Test func createdAccount_carriesASession() throws {
        let text = """
            {"version": 1, "account": {"user": {"id": "u9", "handle": "zoe", "displayName": "Zoe"},
             "token": "tok_z", "expiresAt": 1764000000000, "renewToken": "ren_z",
             "renewExpiresAt": 1766600000000, "clientToken": "k1"}}
            """
        let account = try WireFormat.decode(CreatedAccount.self, from: Data(text.utf8)).payload
        #expect(account.session.renewToken == "ren_z")
        #expect(account.user.handle == "zoe")
        #expect(account.clientToken == "k1")
    }
}

/// The changes credentials reported, in order.
private final class ChangeLog: Sendable {
    let entries = Mutex<[Credentials.Change]>([])
    var all: [Credentials.Change] { entries.withLock { $0 } }
}

private struct OfflineTransport: Transport {
    func send(_ request: Request) async throws(TransportError) -> Response { throw .offline() }
}

private final class RecordingTransport: Transport {
    let requests = Mutex<[Request]>([])
    func send(_ request: Request) async throws(TransportError) -> Response {
        requests.withLock { $0.append(request) }
        return .error(500, code: "recorded", message: "recorded only")
    }
}
