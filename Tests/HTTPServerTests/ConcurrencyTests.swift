import Backend
import Foundation
import HTTPServer
import MediaModel
import ServerAPI
import ServerTesting
import Testing
import Wire

/// Many clients at once.
@Suite struct ConcurrencyTests {
    @Test func twoHundredFiftySixClients_areServedWhileAllAreConnected() async throws {
        // Given the real backend and 256 clients connected at the same time
        let fixture = try ServerFixture()
        let clients = try (0..<256).map { _ in try fixture.raw() }
        #expect(await eventually { fixture.server.statistics.connectionsOpen == 256 })

        // When each sends a request before any response is read
        for (index, client) in clients.enumerated() {
            client.send(RawClient.get("/v1/posts/m\(index + 1)", token: fixture.token))
        }

        // Then every one gets its own answer, with all 256 still open
        for (index, client) in clients.enumerated() {
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("\"id\":\"m\(index + 1)\""))
        }
        #expect(fixture.server.statistics.peakConnectionsOpen >= 256)
        #expect(await eventually { fixture.server.statistics.responses == 256 })
        await fixture.stop()
    }

    @Test func concurrentClientsThroughTheTransport_allSucceed() async throws {
        let fixture = try ServerFixture()
        let client = fixture.client
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<32 {
                group.addTask { try await client.homeFeed(limit: 1 + index % 5).payload.entries.count }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts
        }
        #expect(counts.count == 32)
        #expect(counts.allSatisfy { (1...5).contains($0) })
        await fixture.stop()
    }

    @Test func connectionsOverTheLimit_areAnswered503() async throws {
        // Two connections in the middle of a request (idle ones would be closed to make room)
        let server = try startServer(configure: { $0.maxConnections = 2 }) { _ in Response(status: 204) }
        let kept = try (0..<2).map { _ in try RawClient(port: server.port) }
        for client in kept { client.send("GET / HTTP/1.1\r\n") }
        #expect(await eventually { server.statistics.connectionsOpen == 2 })
        let extra = try RawClient(port: server.port)
        let refused = try await extra.readResponse()
        #expect(refused.status == 503)
        #expect(refused.errorCode == "server_busy")
        #expect(refused.headers["Retry-After"] == "1")
        for client in kept {
            client.send("Host: x\r\n\r\n")
            #expect(try await client.readResponse().status == 204)
        }
        _ = await server.shutdown()
    }
}
