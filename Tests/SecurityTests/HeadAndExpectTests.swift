@_spi(Testing) import Backend
import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// Requests a route table does not expect: HEAD is answered like GET without the body (it got
/// 405 from the backend's router), and an expectation the server cannot meet gets 417 (it was
/// handled as if absent).
@Suite struct HeadAndExpectTests {
    @Test(arguments: ["/v1/feed?limit=5", "/v1/accounts", "/v1/nothing-here"])
    func head_answersLikeGetWithoutTheBody(_ target: String) async throws {
        let server = try AttackTarget(.http)
        let token = try await server.session(BackendSeed.firstHandle).token
        let raw = try RawClient(port: try #require(server.port))
        raw.send(RawClient.get(target, token: token))
        let get = try await raw.readResponse()
        raw.send(RawClient.get(target, token: token).replacingOccurrences(of: "GET ", with: "HEAD "))
        let head = try await raw.readResponse(headOnly: true)
        #expect(head.status == get.status)
        #expect(head.headers["Content-Length"] == String(get.body.count))
        let names = { (response: RawClient.RawResponse) in
            response.headers.map { $0.name.lowercased() }.filter { $0 != "date" }
        }
        #expect(names(head) == names(get))
        #expect(head.body.isEmpty)
        // Nothing followed the head: the next request on the connection is answered normally.
        raw.send(RawClient.get(target, token: token))
        #expect(try await raw.readResponse().body == get.body)
        await server.stop()
    }

    @Test func anExpectationTheServerCannotMeet_isRefusedWithTheSharedErrorBodyAndClosed() async throws {
        // Given a server whose handler records whether it ran
        let calls = LogRecorder()
        let server = try startServer { request in
            calls.append(
                AccessLogEntry(
                    date: Date(), remote: "", method: "\(request.method)", target: request.target, status: 0,
                    bytes: 0, duration: .zero))
            return Response(status: 200)
        }

        // When a request expects what the server cannot meet
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\nExpect: 999-foo\r\n\r\n")
        let response = try await client.readResponse()

        // Then it is refused with 417 and the JSON error body, the connection closes, no handler ran
        #expect(response.status == 417)
        #expect(response.errorCode == "expectation_failed")
        #expect(
            response.errorMessage
                == "the server cannot meet 'Expect: 999-foo'; the only expectation it knows is 100-continue")
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.closes)
        #expect(await client.isClosedByServer())
        #expect(calls.all.isEmpty)
        #expect(server.statistics.rejected == 1)
        _ = await server.shutdown()
    }
}
