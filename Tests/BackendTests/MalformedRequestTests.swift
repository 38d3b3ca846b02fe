import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

@Suite struct MalformedRequestTests {
    struct Case: Sendable, CustomStringConvertible {
        var method: HTTPMethod
        var path: String
        var query: [String: String] = [:]
        var body: String?
        var status: Int
        var code: String
        var message: String?

        var description: String { "\(method) \(path) \(query) \(body ?? "")" }
    }

    static let cases: [Case] = [
        Case(
            method: .post, path: "/v1/posts", body: "{not json", status: 400, code: "invalid_body"),
        Case(
            method: .post, path: "/v1/posts", body: #"{"text": "mine", "text": "theirs"}"#, status: 400,
            code: "invalid_body",
            message: "body: the key 'text' appears more than once in one object; send each key once"),
        Case(
            method: .post, path: "/v1/posts", body: #"{"text": "mine", "t\u0065xt": "theirs"}"#, status: 400,
            code: "invalid_body",
            message: "body: the key 'text' appears more than once in one object; send each key once"),
        Case(
            method: .post, path: "/v1/posts",
            body: #"{"text": "x", "attachments": [{"type": "photo", "width": 1, "width": 2, "height": 1}]}"#,
            status: 400, code: "invalid_body",
            message: "body: the key 'width' appears more than once in one object; send each key once"),
        Case(
            method: .post, path: "/v1/posts", body: #"{"text": 5}"#, status: 400, code: "invalid_body",
            message: "text: expected a string, found 5"),
        Case(
            method: .post, path: "/v1/posts", body: "{}", status: 400, code: "invalid_body",
            message: "text: required field is missing"),
        Case(
            method: .post, path: "/v1/posts", body: "[1, 2]", status: 400, code: "invalid_body",
            message: "body: <root>: expected an object, found an array"),
        Case(
            method: .post, path: "/v1/posts", body: nil, status: 400, code: "invalid_body",
            message: "the body is empty; send a JSON object"),
        Case(
            method: .post, path: "/v1/posts", body: #"{"text": "  "}"#, status: 400, code: "invalid_body",
            message: "a post needs text or at least one attachment; both are empty"),
        Case(
            method: .post, path: "/v1/posts",
            body: #"{"text": "x", "attachments": [{"type": "photo", "width": "wide"}]}"#, status: 400,
            code: "invalid_body", message: #"attachments[0].width: expected a number, found "wide""#),
        Case(
            method: .post, path: "/v1/posts", body: #"{"text": "x", "attachments": {"type": "photo"}}"#,
            status: 400, code: "invalid_body", message: "attachments: expected an array, found an object"),
        Case(
            method: .post, path: "/v1/posts", body: "{\"text\": \"\(String(repeating: "a", count: 2201))\"}",
            status: 400, code: "invalid_body", message: "text: 2201 characters is over the limit of 2200"),
        Case(
            method: .post, path: "/v1/posts/m1/replies", body: #"{"text": null}"#, status: 400,
            code: "invalid_body", message: "text: required field is missing"),
        Case(
            method: .get, path: "/v1/feed", query: ["limit": "100000"], status: 400,
            code: "invalid_parameter",
            message: "query parameter 'limit': expected a whole number from 1 to 100, found '100000'"),
        Case(
            method: .get, path: "/v1/feed", query: ["limit": "-1"], status: 400, code: "invalid_parameter"),
        Case(
            method: .get, path: "/v1/feed", query: ["limit": "ten"], status: 400, code: "invalid_parameter"),
        Case(
            method: .get, path: "/v1/feed", query: ["limit": "99999999999999999999999"], status: 400,
            code: "invalid_parameter"),
        Case(
            method: .get, path: "/v1/feed", query: ["cursor": "garbage"], status: 400,
            code: "invalid_parameter",
            message: "query parameter 'cursor': 'garbage' is not a cursor of this list; pass the nextCursor "
                + "of a previous page of the same list, or leave it out for the first page"),
        Case(
            method: .get, path: "/v1/feed", query: ["cursor": "t:1.2"], status: 400, code: "invalid_parameter"
        ),
        Case(
            method: .get, path: "/v1/feed", query: ["cursor": "f:1.2.x"], status: 400,
            code: "invalid_parameter"),
        Case(
            method: .get, path: "/v1/events", query: ["wait": "3600"], status: 400, code: "invalid_parameter"),
        Case(
            method: .get, path: "/v1/nothing", status: 404, code: "not_found",
            message:
                "no endpoint at 'GET /v1/nothing'; Backend's docs list the routes (Modules/Backend/Backend.docc)"
        ),
        Case(
            method: .post, path: "/v1/feed", body: "{}", status: 405, code: "method_not_allowed",
            message: "'/v1/feed' does not accept POST; use GET"),
        Case(
            method: .post, path: "/v1/accounts",
            body: #"{"handle": "Bad Handle!", "displayName": "x", "password": "long enough"}"#,
            status: 400, code: "invalid_body",
            message: "handle: 'Bad Handle!' must be 2 to 24 characters of a-z, 0-9 and _"),
    ]

    @Test(arguments: cases)
    func malformedRequest_getsA4xxWithAJSONErrorBody(_ testCase: Case) async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).send(
            testCase.method, testCase.path, query: testCase.query, body: testCase.body,
            key: testCase.method == .get ? nil : "malformed")
        #expect(response.status == testCase.status, "\(response.text)")
        #expect(response.errorCode == testCase.code)
        if let message = testCase.message { #expect(response.errorMessage == message) }
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func aBodyOverOneMebibyte_is413() async throws {
        let server = try BackendFixture.fresh()
        let huge = "{\"handle\": \"\(String(repeating: "x", count: 1 << 20))\"}"
        let response = await TestClient(server: server).send(.post, "/v1/accounts", body: huge, key: "huge")
        #expect(response.status == 413)
        #expect(response.errorCode == "body_too_large")
        #expect(response.errorMessage == "the body is \(huge.utf8.count) bytes, over the limit of \(1 << 20)")
    }

    /// A post may carry photos as base64, so its limit is the backend's largest.
    @Test func aPostsBodyOverItsLimit_is413() async throws {
        let server = try BackendFixture.fresh()
        let limit = BackendServer.maximumRequestBodySize
        let huge = "{\"text\": \"\(String(repeating: "x", count: limit))\"}"
        let response = await TestClient(server: server).send(.post, "/v1/posts", body: huge, key: "huge")
        #expect(response.status == 413)
        #expect(response.errorMessage == "the body is \(huge.utf8.count) bytes, over the limit of \(limit)")
    }

    @Test func wrongMethod_listsTheAllowedOnes() async throws {
        let server = try BackendFixture.fresh()
        let response = await TestClient(server: server).send(.post, "/v1/posts/m1/like", key: "k")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "PUT, DELETE")
    }

    @Test func aRejectedMutation_isRecordedSoARetryFailsTheSameWay() async throws {
        let server = try BackendFixture.fresh()
        let client = TestClient(server: server)
        let first = await client.send(.post, "/v1/posts", body: "{}", key: "bad-once")
        let second = await client.send(.post, "/v1/posts", body: "{}", key: "bad-once")
        #expect(first.status == 400)
        #expect(second.body == first.body)
        #expect(second.headers["Idempotent-Replayed"] == "true")
    }
}
