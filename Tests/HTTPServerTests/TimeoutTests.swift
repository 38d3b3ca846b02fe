import Foundation
import HTTPServer
import Testing
import Wire

/// The request, idle and write timeouts, with sub-second values so the suite stays fast.
@Suite struct TimeoutTests {
    @Test func aClientSendingOneByteAtATime_isDroppedWhenTheRequestTimeoutEnds() async throws {
        // Given a 300 ms request timeout
        let server = try startServer(configure: { $0.requestTimeout = .milliseconds(300) }) { _ in
            Response(status: 200)
        }
        let client = try RawClient(port: server.port)

        // When a client trickles a request a byte every 50 ms (never idle for long, but too slow)
        let request = Array(
            "GET /v1/feed HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "s", count: 40))\r\n\r\n"
                .utf8)
        var sentAll = true
        for byte in request {
            guard client.send([byte]) else {
                sentAll = false
                break
            }
            if server.statistics.timeouts > 0 { break }
            try await Task.sleep(for: .milliseconds(50))
        }

        // Then it is answered 408 and closed before the request was complete
        let response = try await client.readResponse()
        #expect(response.status == 408)
        #expect(response.errorCode == "request_timeout")
        #expect(await client.isClosedByServer())
        #expect(server.statistics.timeouts == 1)
        #expect(server.statistics.requests == 0)
        _ = sentAll
        _ = await server.shutdown()
    }

    @Test func anIdleKeptAliveConnection_isClosedQuietly() async throws {
        let server = try startServer(configure: { $0.idleTimeout = .milliseconds(200) }) { _ in
            Response(status: 204)
        }
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 204)
        // No bytes at all: the close comes without a 408.
        #expect(await client.readToEnd().isEmpty)
        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        _ = await server.shutdown()
    }

    @Test func aClientThatStopsReading_isClosedWhenTheWriteTimeoutEnds() async throws {
        // Given a response far larger than the socket buffers and a 200 ms write timeout
        let log = LogRecorder()
        let big = Data(repeating: 0x78, count: 32 * 1024 * 1024)
        let server = try startServer(configure: { $0.writeTimeout = .milliseconds(200) }, log: log) { _ in
            Response(status: 200, body: big)
        }

        // When the client asks and never reads
        let client = try RawClient(port: server.port)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")

        // Then the server gives up on it and says so in the log
        #expect(await eventually { server.statistics.timeouts == 1 })
        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        #expect(log.all.first?.note == "write timed out")
        _ = client
        _ = await server.shutdown()
    }
}
