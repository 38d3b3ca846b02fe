@_spi(Testing) import Backend
import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Testing
import Wire

/// A renewal whose answer was lost, retried: the retry gets the same pair within a short window,
/// while a renew token presented after its pair moved on still ends the session.
@Suite struct RenewalRetryTests {
    @Test(arguments: AttackPath.allCases)
    func aRenewalRetriedWithinTheWindow_getsTheSamePair(_ path: AttackPath) async throws {
        // Given ada signed in, and a renewal whose answer her device never read
        let target = try AttackTarget(path)
        let first = try await target.session("ada")
        let lost = try await renew(target, first.renewToken)
        let pair = try #require(Session(lost.json["session"]), "\(lost.text)")
        // When her device retries with the same renew token a few seconds later
        target.clock.advance(by: .seconds(5))
        let retry = try await renew(target, first.renewToken)
        // Then it gets the same pair, with the same expiries, and that pair works
        #expect(retry.status == 200, "\(retry.text)")
        let again = try #require(Session(retry.json["session"]))
        #expect(again.token == pair.token)
        #expect(again.renewToken == pair.renewToken)
        #expect(retry.json["session", "expiresAt"] == lost.json["session", "expiresAt"])
        #expect(try await target.me(again.token).handle == "ada")
        #expect(try await target.me(first.token).code == "invalid_token")
        await target.stop()
    }

    @Test func twentyRenewalsAtOnce_handOutOnePair_andEveryCallerGetsIt() async throws {
        // Given grace signed in
        let target = try AttackTarget(.http)
        let first = try await target.session("grace")
        // When twenty renewals with her renew token arrive at once
        let answers = try await withThrowingTaskGroup(of: Response.self) { group in
            for _ in 0..<20 { group.addTask { try await renew(target, first.renewToken) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then every one is 200 with one and the same new pair
        #expect(answers.map(\.status) == Array(repeating: 200, count: 20))
        let pairs = answers.compactMap { Session($0.json["session"]) }
        #expect(pairs.count == 20)
        #expect(Set(pairs.map(\.token)).count == 1)
        #expect(Set(pairs.map(\.renewToken)).count == 1)
        // and the server holds exactly two sessions of that sign-in: the old one and the new one
        let rows = try target.backend.database.query(
            "SELECT COUNT(*) FROM sessions WHERE family = (SELECT family FROM sessions ORDER BY id DESC LIMIT 1)"
        ) { try $0.int(0) }
        #expect(rows == [2])
        let token = try #require(pairs.first?.token)
        #expect(try await target.me(token).handle == "grace")
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func theOldRenewTokenAfterTheWindow_revokesTheWholeSession(_ path: AttackPath) async throws {
        // Given ada's session, renewed once
        let target = try AttackTarget(path)
        let first = try await target.session("ada")
        let second = try #require(Session(try await renew(target, first.renewToken).json["session"]))
        // When the first renew token comes back after the retry window
        target.clock.advance(by: .seconds(31))
        let replay = try await renew(target, first.renewToken)
        // Then it is refused, and the pair it was renewed into is revoked too
        #expect(replay.status == 401)
        #expect(replay.errorCode == "invalid_renew_token")
        #expect(try await target.me(second.token).code == "invalid_token")
        #expect(try await renew(target, second.renewToken).errorCode == "invalid_renew_token")
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func theOldRenewTokenAfterTheNewOneWasUsed_revokesTheWholeSession(_ path: AttackPath) async throws {
        // Given ada's session renewed twice within seconds (the second with the new renew token)
        let target = try AttackTarget(path)
        let first = try await target.session("ada")
        let second = try #require(Session(try await renew(target, first.renewToken).json["session"]))
        let third = try #require(Session(try await renew(target, second.renewToken).json["session"]))
        // When the first renew token comes back, still inside the window
        let replay = try await renew(target, first.renewToken)
        // Then it is refused and every session from that sign-in is revoked
        #expect(replay.status == 401)
        #expect(replay.errorCode == "invalid_renew_token")
        #expect(try await target.me(third.token).code == "invalid_token")
        #expect(try await renew(target, third.renewToken).errorCode == "invalid_renew_token")
        await target.stop()
    }

    @Test func theDatabaseHoldsNothingThatGivesTheRetriedPair() async throws {
        // Given a renewal (its answer can be asked for again within the window)
        let target = try AttackTarget(.embedded)
        let first = try await target.session("ada")
        let second = try #require(Session(try await renew(target, first.renewToken).json["session"]))
        // When someone reads the sessions table and the file's bytes
        let database = target.backend.database
        var text = ""
        for row in try database.query("SELECT * FROM sessions") {
            text += row.values.map { "\($0)" }.joined(separator: "|") + "\n"
        }
        // Then neither pair's tokens are there in plain
        for secret in [first.token, first.renewToken, second.token, second.renewToken] {
            #expect(!text.contains(secret))
            #expect(!text.contains(String(secret.dropFirst(4))))
        }
        let path = target.backend.databasePath
        for file in [path, path + "-wal"] {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            for secret in [second.token, second.renewToken] {
                #expect(bytes.range(of: Data(secret.dropFirst(4).utf8)) == nil, "\(file)")
            }
        }
        await target.stop()
    }
}

/// `POST /v1/sessions/renew` with `renewToken`.
private func renew(_ target: AttackTarget, _ renewToken: String) async throws -> Response {
    try await target.send(.post, "/v1/sessions/renew", json: #"{"renewToken": "\#(renewToken)"}"#)
}

/// The app's side: a renewal whose answer is lost is retried with the same renew token.
@Suite struct RenewalAnswerLostTests {
    @Test func aRenewalWhoseAnswerIsLost_isRetried_andTheSessionGoesOn() async throws {
        // Given ada signed in through the API client, with tokens that last a minute, over a
        // transport that loses the answer to the first renewal (the server did renew)
        let target = try AttackTarget(.embedded, sessionPolicy: .init(tokenLifetime: .seconds(60)))
        let transport = AnswerLosingTransport(inner: EmbeddedTransport(server: target.backend))
        let anonymous = APIClient(transport: transport, credentials: nil, clock: target.clock)
        let session = try await anonymous.signIn(handle: "ada", password: DemoAccounts.password).payload
        let credentials = Credentials(session: session, issuedAt: target.clock.now)
        let client = anonymous.signedIn(with: credentials)
        // When her token has expired and she opens her profile
        target.clock.advance(by: .seconds(61))
        let me = try await client.me()
        // Then the renewal was sent twice with the same renew token, and she stays signed in
        #expect(me.payload.user.handle == "ada")
        #expect(transport.renewals == [session.renewToken, session.renewToken])
        #expect(!credentials.hasEnded)
        #expect(credentials.renewalCount == 1)
        #expect(try await client.me().payload.user.handle == "ada")
        await target.stop()
    }
}

/// Forwards requests, but loses the answer to the first renewal after the server handled it
/// (a timeout, as on a network that dropped the response).
private final class AnswerLosingTransport: Transport {
    private let inner: any Transport
    private let sent = Mutex<[String]>([])

    init(inner: any Transport) { self.inner = inner }

    /// The renew tokens renewals were sent with, in order.
    var renewals: [String] { sent.withLock { $0 } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        let response = try await inner.send(request)
        guard request.path == "/v1/sessions/renew" else { return response }
        let token = (try? JSONValue(parsing: request.body))?["renewToken"].stringValue ?? ""
        let first = sent.withLock { sent in
            sent.append(token)
            return sent.count == 1
        }
        if first { throw TransportError.timeout("the renewal's answer was lost") }
        return response
    }
}
