import Backend
import MediaModel
import Testing
import Wire

/// Using a token after it should have stopped working.
@Suite struct TokenAttackTests {
    @Test(arguments: AttackPath.allCases)
    func anExpiredToken_isRefused_andItsRenewTokenGivesANewOne(_ path: AttackPath) async throws {
        // Given tokens that last a minute, and ada signed in
        let target = try AttackTarget(path, sessionPolicy: .init(tokenLifetime: .seconds(60)))
        let session = try await target.session("ada")
        #expect(try await target.me(session.token).status == 200)
        // When the minute has passed
        target.clock.advance(by: .seconds(61))
        // Then her token is refused as expired
        let expired = try await target.me(session.token)
        #expect(expired.status == 401)
        #expect(expired.code == "token_expired")
        // and only her renew token gets her a working one
        let renewed = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(session.renewToken)"}"#)
        #expect(renewed.status == 200, "\(renewed.text)")
        let fresh = try #require(Session(renewed.json["session"]))
        #expect(fresh.token != session.token)
        #expect(try await target.me(fresh.token).handle == "ada")
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func aTokenAfterSignOut_isRefused_andSoIsItsRenewToken(_ path: AttackPath) async throws {
        // Given grace signed in twice (two devices)
        let target = try AttackTarget(path)
        let laptop = try await target.session("grace")
        let phone = try await target.session("grace")
        // When she signs out on the laptop
        let signOut = try await target.send(.delete, "/v1/sessions/current", token: laptop.token)
        #expect(signOut.status == 204)
        #expect(signOut.body.isEmpty)
        // Then a copy of the laptop's token or renew token gets nothing
        let me = try await target.me(laptop.token)
        #expect(me.status == 401)
        #expect(me.code == "invalid_token")
        let renew = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(laptop.renewToken)"}"#)
        #expect(renew.status == 401)
        #expect(renew.errorCode == "invalid_renew_token")
        // while the phone stays signed in
        #expect(try await target.me(phone.token).handle == "grace")
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func aRenewTokenUsedTwice_revokesTheWholeSession(_ path: AttackPath) async throws {
        // Given ada's session, renewed once by her device
        let target = try AttackTarget(path)
        let first = try await target.session("ada")
        let renewed = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(first.renewToken)"}"#)
        let second = try #require(Session(renewed.json["session"]), "\(renewed.text)")
        #expect(try await target.me(first.token).code == "invalid_token")
        // When a stolen copy of the first renew token is presented after that rotation, once the
        // window for retrying a renewal whose answer was lost has passed
        target.clock.advance(by: .seconds(31))
        let replay = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(first.renewToken)"}"#)
        // Then it is refused, and the session it was renewed into is revoked too
        #expect(replay.status == 401)
        #expect(replay.errorCode == "invalid_renew_token")
        #expect(try await target.me(second.token).code == "invalid_token")
        let secondRenew = try await target.send(
            .post, "/v1/sessions/renew", json: #"{"renewToken": "\#(second.renewToken)"}"#)
        #expect(secondRenew.errorCode == "invalid_renew_token")
        await target.stop()
    }

    @Test func tokensAreRandom_256BitsOfHex_andNeverRepeat() async throws {
        // Given two sign-ins of the same account
        let target = try AttackTarget()
        let one = try await target.session("ada")
        let two = try await target.session("ada")
        // Then the tokens are 64 hex digits behind their prefixes, and differ
        for (token, prefix) in [(one.token, "tok_"), (one.renewToken, "ren_"), (two.token, "tok_")] {
            #expect(token.hasPrefix(prefix))
            #expect(token.dropFirst(4).count == 64)
            #expect(token.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(one.token != two.token)
        #expect(one.renewToken != two.renewToken)
        await target.stop()
    }
}
