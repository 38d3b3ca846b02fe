import Backend
import MediaModel
import Testing
import Wire

/// Replaying someone's idempotency key to get their response.
@Suite struct ReplayAttackTests {
    @Test(arguments: AttackPath.allCases)
    func aReplayedAccountCreationKey_neverHandsOutTheAccountsToken(_ path: AttackPath) async throws {
        // Given zoe's new account, made with the key "signup-zoe"
        let target = try AttackTarget(path)
        let created = try await target.createAccount("zoe", password: "zoe's long secret", key: "signup-zoe")
        #expect(created.status == 201, "\(created.text)")
        let zoe = try #require(Session(created.json["account"]))

        // When an attacker who saw the key replays it: with zoe's body as it was before
        // passwords, with a guessed password, or for another handle
        let attempts = [
            try await target.send(
                .post, "/v1/accounts", json: #"{"handle": "zoe", "displayName": "Zoe"}"#, key: "signup-zoe"),
            try await target.createAccount("zoe", password: "guessed password", key: "signup-zoe"),
            try await target.createAccount("mallory", password: "mallory's secret", key: "signup-zoe"),
        ]

        // Then no answer holds a token, let alone zoe's
        #expect(attempts.map(\.status) == [400, 409, 409])
        #expect(attempts.map(\.errorCode) == ["invalid_body", "client_token_reused", "client_token_reused"])
        for response in attempts {
            #expect(!response.text.contains("tok_"), "\(response.text)")
            #expect(!response.text.contains(zoe.token))
        }
        // and zoe's own retry (same handle and password) gets a new session, not the first one
        let retry = try await target.createAccount("zoe", password: "zoe's long secret", key: "signup-zoe")
        #expect(retry.status == 201)
        let again = try #require(Session(retry.json["account"]))
        #expect(again.token != zoe.token)
        #expect(try await target.me(again.token).handle == "zoe")
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func aReplayedMutationKeyFromAnotherAccount_neverSeesTheFirstResponse(_ path: AttackPath) async throws {
        // Given a post ada made with the key "draft-1"
        let target = try AttackTarget(path)
        let ada = try await target.session("ada")
        let body = #"{"text": "ada's post"}"#
        let first = try await target.send(.post, "/v1/posts", json: body, token: ada.token, key: "draft-1")
        #expect(first.status == 201)
        let adaPost = try #require(first.json["mutation", "media", "id"].stringValue)

        // When mallory, signed in to her own new account, replays the key with the same body
        let created = try await target.createAccount("mallory", password: "mallory's secret", key: "m-1")
        let mallory = try #require(Session(created.json["account"]))
        let replay = try await target.send(
            .post, "/v1/posts", json: body, token: mallory.token, key: "draft-1")

        // Then she gets a post of her own, not ada's recorded response
        #expect(replay.status == 201)
        #expect(replay.headers["Idempotent-Replayed"] == nil)
        #expect(replay.json["mutation", "media", "id"].stringValue != adaPost)
        #expect(replay.json["mutation", "media", "author", "handle"].stringValue == "mallory")
        // and ada's own retry still gets hers
        let retry = try await target.send(.post, "/v1/posts", json: body, token: ada.token, key: "draft-1")
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.json["mutation", "media", "id"].stringValue == adaPost)
        await target.stop()
    }
}
