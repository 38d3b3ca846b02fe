import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// The request, idle and write timeouts, with sub-second values so the suite stays fast.
@Suite struct TimeoutTests {
    @Test func aClientSendingOneByteAtATime_isDroppedWhenTheRequestTimeoutEnds() async throws {
        // Given a 1 s request timeout (which a new connection also has for its first byte)
        let server = try startServer(configure: { $0.requestTimeout = .seconds(1) }) { _ in
            Response(status: 200)
        }
        let client = try RawClient(port: server.port)

        // When a client trickles a request a byte every 50 ms (never idle for long, but too slow),
        // a request whose head never ends, so a server starved past the timeout still sees it
        // incomplete, and only the request timeout can end it
        #expect(client.send("GET /v1/feed HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
        let deadline = ContinuousClock.now + .seconds(60)
        while server.statistics.timeouts == 0, ContinuousClock.now < deadline, client.send("s") {
            try await Task.sleep(for: .milliseconds(50))
        }

        // Then it is answered 408 and closed before the request was complete
        let response = try await client.readResponse()
        #expect(response.status == 408)
        #expect(response.errorCode == "request_timeout")
        #expect(await client.isClosedByServer())
        #expect(server.statistics.timeouts == 1)
        #expect(server.statistics.requests == 0)
        _ = await server.shutdown()
    }

    @Test func anIdleKeptAliveConnection_isClosedQuietly() async throws {
        // (2 s: a new connection is idle too until its first byte, and the test's thread may be
        // held back between connecting and sending on a busy machine)
        let server = try startServer(configure: { $0.idleTimeout = .seconds(2) }) { _ in
            Response(status: 204)
        }
        let client = try RawClient(port: server.port, readTimeout: .seconds(30))
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
