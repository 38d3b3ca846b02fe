@_spi(Testing) import Backend
import Foundation
import HTTPServer
import MediaModel
import ServerAPI
import Testing
import Wire

/// What only HTTP has: the bearer token header, methods the router does not know, long polls
/// held by the server. (Every endpoint and refusal over both transports: ServerAPITests'
/// `BothTransportsTests`.)
@Suite struct EndpointTests {
    @Test func theBearerToken_selectsTheViewer() async throws {
        let fixture = try ServerFixture()
        let grace = fixture.client.signedIn(as: fixture.backend.testToken(forHandle: "grace"))
        #expect(try await grace.me().payload.user.handle == "grace")
        #expect(try await fixture.client.me().payload.user.handle == "ada")
        await fixture.stop()
    }

    @Test func anUnknownMethod_isAnsweredByTheHandlerWith405() async throws {
        let fixture = try ServerFixture()
        let raw = try fixture.raw()
        raw.send("PATCH /v1/feed HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let response = try await raw.readResponse()
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET")
        #expect(response.errorCode == "method_not_allowed")
        await fixture.stop()
    }

    @Test(arguments: ["/v1/feed?limit=5", "/v1/accounts", "/v1/nothing-here"])
    func head_answersLikeGetWithoutTheBody(_ target: String) async throws {
        let fixture = try ServerFixture()
        let raw = try fixture.raw()
        raw.send(RawClient.get(target, token: fixture.token))
        let get = try await raw.readResponse()
        raw.send(RawClient.get(target, token: fixture.token).replacingOccurrences(of: "GET ", with: "HEAD "))
        let head = try await raw.readResponse(headOnly: true)
        #expect(head.status == get.status)
        #expect(head.headers["Content-Length"] == String(get.body.count))
        let names = { (response: RawClient.RawResponse) in
            response.headers.map { $0.name.lowercased() }.filter { $0 != "date" }
        }
        #expect(names(head) == names(get))
        #expect(head.body.isEmpty)
        // Nothing followed the head: the next request on the connection is answered normally.
        raw.send(RawClient.get(target, token: fixture.token))
        #expect(try await raw.readResponse().body == get.body)
        await fixture.stop()
    }

    @Test func aLongPoll_returnsWhenAnEventArrives() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let start = try await client.events(after: "latest")
        let poll = Task { try await client.events(after: start.payload.nextCursor, wait: 20) }
        // Give the poll time to reach the server, then make an event for ada.
        #expect(await eventually { fixture.server.statistics.requests >= 2 })
        let grace = client.signedIn(as: fixture.backend.testToken(forHandle: "grace"))
        _ = try await grace.reply(to: "m1", text: "@ada over http", clientToken: "g1")
        let events = try await poll.value.payload.events
        #expect(events.map(\.kind).contains(.mention))
        #expect(events.first?.actor.handle == "grace")
        await fixture.stop()
    }
}
