import Backend
import MediaModel
import ServerTesting
import Testing
import Wire

/// Requests built to confuse who is asking or what they asked.
@Suite struct MalformedIdentityRequestTests {
    @Test func twoAuthorizationHeaders_are400_notTheFirstOrTheLastUser() async throws {
        // Given tokens for ada and grace
        let target = try AttackTarget()
        let port = try #require(target.port)
        let ada = try await target.session("ada")
        let grace = try await target.session("grace")
        // When one request carries both
        let client = try RawClient(port: port)
        client.send(
            "GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ada.token)\r\n"
                + "Authorization: Bearer \(grace.token)\r\nConnection: close\r\n\r\n")
        let response = try await client.readResponse()
        // Then it is refused, answering as neither
        #expect(response.status == 400)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("\"handle\""))
        await target.stop()
    }

    @Test(arguments: AttackPath.allCases)
    func aDuplicateKeyInASignInBody_is400(_ path: AttackPath) async throws {
        // Given a sign-in body naming two handles (parsers disagree on which one wins)
        let target = try AttackTarget(path)
        let response = try await target.send(
            .post, "/v1/sessions",
            json: #"{"handle": "mallory", "handle": "ada", "password": "\#(DemoAccounts.password)"}"#)
        // Then it is refused, with no token
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_body")
        #expect(!response.text.contains("tok_"))
        await target.stop()
    }
}
