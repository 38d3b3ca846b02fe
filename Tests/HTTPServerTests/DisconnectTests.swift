import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// Clients that vanish mid-request or mid-response: the server cleans up and keeps serving.
@Suite struct DisconnectTests {
    @Test func aClientClosingMidHead_leavesNoConnectionAndNoRequest() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        client.send("GET /v1/feed HTTP/1.1\r\nHo")
        client.reset()

        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        #expect(server.statistics.requests == 0)
        let next = try RawClient(port: server.port)
        next.send(RawClient.get("/"))
        #expect(try await next.readResponse().status == 200)
        _ = await server.shutdown()
    }

    @Test func aClientClosingMidBody_neverReachesTheHandler() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        client.send("POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text\":")
        client.finishSending()

        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        #expect(server.statistics.requests == 0)
        #expect(server.statistics.clientsGone == 1)
        _ = await server.shutdown()
    }

    @Test func aClientResettingMidResponse_isLoggedAndTheServerCarriesOn() async throws {
        // Given a response much larger than the socket buffers
        let log = LogRecorder()
        let big = Data(repeating: 0x79, count: 32 * 1024 * 1024)
        let server = try startServer(log: log) { request in
            request.path == "/big" ? Response(status: 200, body: big) : Response(status: 204)
        }

        // When a client reads the start of it and resets the connection
        let client = try RawClient(port: server.port)
        client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        var first = [UInt8](repeating: 0, count: 1024)
        _ = first.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
        client.reset()

        // Then the server notes the client left while writing, and serves the next one
        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        #expect(server.statistics.clientsGone == 1)
        #expect(log.all.first?.note?.hasPrefix("client gone while writing") == true)
        let next = try RawClient(port: server.port)
        next.send(RawClient.get("/small"))
        #expect(try await next.readResponse().status == 204)
        _ = await server.shutdown()
    }

    @Test func aClientResettingWhileTheHandlerRuns_cancelsTheHandler() async throws {
        // Given a handler that waits until cancelled
        let cancelled = Gate()
        let started = Gate()
        let server = try startServer { _ in
            started.open()
            // (until cancelled, however late the cancellation comes)
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
            cancelled.open()
            return Response(status: 200)
        }
        let client = try RawClient(port: server.port)
        client.send(RawClient.get("/wait"))
        await started.wait()

        // When the client resets the connection, a write to it fails at once
        client.reset()
        #expect(
            await eventually {
                server.statistics.connectionsAccepted == 1 && server.statistics.connectionsOpen == 0
            })
        await cancelled.wait()
        _ = await server.shutdown()
    }
}
