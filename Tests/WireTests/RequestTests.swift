import Foundation
import Testing
import Wire

@Suite struct RequestTests {
    @Test func target_percentEncodesTheQuery_andParsingRestoresIt() throws {
        // Given a request whose query holds characters that need escaping
        let request = Request(
            .get, "/v1/feed", query: [QueryItem("cursor", "a b&c=d+é"), QueryItem("limit", "20")])

        // When it is written as a target and read back
        let target = request.target
        let parsed = try Request(method: .get, target: target)

        // Then the target is escaped and the round trip is exact
        #expect(target == "/v1/feed?cursor=a%20b%26c%3Dd%2B%C3%A9&limit=20")
        #expect(parsed.path == "/v1/feed")
        #expect(parsed.query == request.query)
    }

    @Test func parsingATarget_readsPlusAsSpaceAndBareNames() throws {
        let parsed = try Request(method: .get, target: "/v1/events?wait&q=a+b")
        #expect(parsed.query == [QueryItem("wait", ""), QueryItem("q", "a b")])
        #expect(parsed.queryValue("q") == "a b")
        #expect(parsed.queryValue("missing") == nil)
    }

    @Test func parsingAMalformedTarget_saysWhatIsWrong() {
        #expect(throws: RequestTargetError.self) { try Request(method: .get, target: "v1/feed") }
        do {
            _ = try Request(method: .get, target: "/v1/feed?cursor=%zz")
            Issue.record("a malformed escape was accepted")
        } catch {
            #expect(
                error.message
                    == "query item 'cursor=%zz' in '/v1/feed?cursor=%zz' holds a malformed percent escape")
        }
    }

    @Test func pathSegments_areDecodedAndSkipEmptyOnes() {
        let request = Request(.get, "/v1//posts/m%34%32/")
        #expect(request.pathSegments == ["v1", "posts", "m42"])
    }

    @Test(
        arguments: [
            ("Bearer seed-ada", "seed-ada"), ("bearer  tok_1 ", "tok_1"), ("Bearer \ttok_2\t ", "tok_2"),
            ("Basic abc", nil), ("Bearer", nil), ("Bearer  \t", nil), ("", nil),
        ] as [(String, String?)])
    func bearerToken_readsOnlyTheBearerScheme(header: String, expected: String?) {
        let request = Request(.get, "/v1/feed", headers: ["Authorization": header])
        #expect(request.bearerToken == expected)
    }

    @Test func methods_areUpperCasedSoUnknownOnesStayRepresentable() {
        #expect(HTTPMethod(rawValue: "get") == .get)
        #expect(HTTPMethod(rawValue: "brew").rawValue == "BREW")
        #expect(Request(.delete, "/v1/posts/m1").description == "DELETE /v1/posts/m1")
    }
}
