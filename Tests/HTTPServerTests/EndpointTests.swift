@_spi(Testing) import Backend
import Foundation
import HTTPServer
import MediaModel
import Mutations
import ServerAPI
import ServerTesting
import Testing
import Wire

/// What only HTTP has: the bearer token header, methods the router does not know, long polls
/// held by the server. (HEAD answered like GET: SecurityTests' `HeadAndExpectTests`. Every
/// endpoint and refusal over both transports: ServerAPITests' `BothTransportsTests`.)
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

    @Test func aLongPoll_returnsWhenAnEventArrives() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let start = try await client.events(after: "latest")
        let poll = Task { try await client.events(after: start.payload.nextCursor, wait: 20) }
        // Give the poll time to reach the server, then make an event for ada.
        #expect(await eventually { fixture.server.statistics.requests >= 2 })
        let grace = client.signedIn(as: fixture.backend.testToken(forHandle: "grace"))
        _ = try await grace.send(.reply(to: "m1", text: "@ada over http", attachments: []), clientToken: "g1")
        let events = try await poll.value.payload.events
        #expect(events.map(\.kind).contains(.mention))
        #expect(events.first?.actor.handle == "grace")
        await fixture.stop()
    }
}
