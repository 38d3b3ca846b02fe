import Backend
import MediaModel
import Testing
import Wire

/// Getting someone's session without their password.
@Suite struct SignInAttackTests {
    @Test(arguments: AttackPath.allCases)
    func signingInWithAHandleAlone_getsNoToken(_ path: AttackPath) async throws {
        // Given grace's account on a server in demo mode
        let target = try AttackTarget(path)
        // When an attacker asks for her session by handle, without a password, or with a wrong one
        let bare = try await target.send(.post, "/v1/sessions", json: #"{"handle": "grace"}"#)
        let wrong = try await target.signIn("grace", "letmein123")
        // Then neither answer holds a token
        #expect(bare.status == 400)
        #expect(bare.errorCode == "invalid_body")
        #expect(wrong.status == 401)
        #expect(wrong.errorCode == "invalid_credentials")
        for response in [bare, wrong] {
            #expect(!response.text.contains("tok_"), "\(response.text)")
            #expect(!response.text.contains("seed-"), "\(response.text)")
        }
        await target.stop()
    }

    @Test func demoAccounts_cannotSignInOffDemoMode_evenWithTheDemoPassword() async throws {
        // Given a server NOT in demo mode (the default), holding the seed accounts
        let target = try AttackTarget(demoMode: false)
        // When someone signs in as a seed account with the documented demo password
        let response = try await target.signIn("ada", DemoAccounts.password)
        // Then it is refused, and the account list says the server is not in demo mode
        #expect(response.status == 403)
        #expect(response.errorCode == "demo_disabled")
        let list = try await target.send(.get, "/v1/accounts")
        #expect(list.json["accounts", "demo"] == .bool(false))
        #expect(list.json["accounts"].text.contains(#""demo":true"#) == false)
        // while a server in demo mode lets them in
        let demo = try AttackTarget(demoMode: true)
        #expect(try await demo.signIn("ada", DemoAccounts.password).status == 200)
        await target.stop()
        await demo.stop()
    }

    @Test func seedStyleTokens_areRefused() async throws {
        // Given a server in demo mode, whose seed accounts once had the tokens `seed-<handle>`
        let target = try AttackTarget()
        // When an attacker guesses them
        for guess in ["seed-grace", "seed-ada", "tok_grace"] {
            let me = try await target.me(guess)
            // Then every guess is refused as an invalid token
            #expect(me.status == 401, "\(guess)")
            #expect(me.code == "invalid_token", "\(guess)")
        }
        await target.stop()
    }
}

extension JSONValue {
    /// The value serialized, for searching.
    var text: String { String(decoding: serialized(), as: UTF8.self) }
}
