import Backend
import MediaModel
import Testing
import Wire

/// Guessing passwords: failed sign-ins are limited per account and per client address.
@Suite struct BruteForceTests {
    @Test(arguments: AttackPath.allCases)
    func fiveWrongPasswordsForAnAccount_lockItFor15Minutes(_ path: AttackPath) async throws {
        // Given grace's account
        let target = try AttackTarget(path)
        // When five guesses fail
        for guess in 1...5 {
            let response = try await target.signIn("grace", "guess-number-\(guess)")
            #expect(response.status == 401, "guess \(guess): \(response.text)")
        }
        // Then the next attempt is 429 with Retry-After, even with the right password
        let locked = try await target.signIn("grace", DemoAccounts.password)
        #expect(locked.status == 429)
        #expect(locked.errorCode == "too_many_attempts")
        #expect(locked.headers["Retry-After"] == "900")
        #expect(!locked.text.contains("tok_"))
        // while another account from the same address still signs in
        #expect(try await target.signIn("alan", DemoAccounts.password).status == 200)
        // and after the window, grace's right password works again
        target.clock.advance(by: .seconds(15 * 60))
        #expect(try await target.signIn("grace", DemoAccounts.password).status == 200)
        await target.stop()
    }

    @Test func aSuccessfulSignIn_clearsTheAccountsCount() async throws {
        // Given four failed guesses for ada, then her own sign-in
        let target = try AttackTarget()
        for guess in 1...4 { #expect(try await target.signIn("ada", "wrong-\(guess)-pass").status == 401) }
        #expect(try await target.signIn("ada", DemoAccounts.password).status == 200)
        // When four more guesses fail
        for guess in 5...8 { #expect(try await target.signIn("ada", "wrong-\(guess)-pass").status == 401) }
        // Then she is not locked out: the count started again at her success
        #expect(try await target.signIn("ada", DemoAccounts.password).status == 200)
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func twentyWrongPasswordsFromOneAddress_lockEveryAccountFromIt(_ path: AttackPath) async throws {
        // Given one guess each at 20 accounts, from one address (loopback; in process, all local)
        let target = try AttackTarget(path)
        for handle in BackendSeed.handles.prefix(20) {
            #expect(try await target.signIn(handle, "password1").status == 401, "\(handle)")
        }
        // When the address tries a 21st account, which had no failures
        let next = try await target.signIn(BackendSeed.handles[20], DemoAccounts.password)
        // Then it is refused until the window passes
        #expect(next.status == 429)
        #expect(next.errorCode == "too_many_attempts")
        #expect(next.headers["Retry-After"] == "900")
        target.clock.advance(by: .seconds(15 * 60))
        #expect(try await target.signIn(BackendSeed.handles[20], DemoAccounts.password).status == 200)
        await target.stop()
    }
}
