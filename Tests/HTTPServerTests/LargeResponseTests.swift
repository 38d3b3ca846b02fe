import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// A response is its head and then its body, sent from where the handler left it: when the socket
/// takes only part of it at a time, each send carries on exactly where the last stopped, across
/// the head's end and inside the body, and pipelined responses follow in order.
@Suite struct LargeResponseTests {
    /// Bytes in which no run of 256 repeats, so a byte sent twice, skipped or out of place shows.
    static let big = Data(
        (0..<(3 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8) ^ ($0 >> 16)) })

    @Test func pipelinedLargeResponses_readLate_arriveWhole_andInOrder() async throws {
        // Given a server answering /big with 3 MB and /small with a few bytes
        // (with a write timeout long enough for a loaded test run's late reader: the test is about
        // the bytes, not the timeout)
        let server = try startServer(configure: { $0.writeTimeout = .seconds(300) }) { request in
            request.path == "/big"
                ? Response(status: 200, headers: ["X-Part": "big"], body: Self.big)
                : Response(status: 200, headers: ["X-Part": "small"], body: Data("small".utf8))
        }
        defer { Task { _ = await server.shutdown() } }

        // When a client with a small receive buffer (so the server's sends stop part way)
        // pipelines four requests and reads only once they are all sent
        let client = try RawClient(port: server.port)
        var small: Int32 = 64 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send(
            RawClient.get("/big") + "HEAD /big HTTP/1.1\r\nHost: x\r\n\r\n" + RawClient.get("/small")
                + RawClient.get("/big"))
        try await Task.sleep(for: .milliseconds(100))
        var responses: [RawClient.RawResponse] = []
        for headOnly in [false, true, false, false] {
            responses.append(try await client.readResponse(headOnly: headOnly))
        }

        // Then each response is whole and in order, its head and body exactly what was sent
        #expect(responses.map(\.status) == [200, 200, 200, 200])
        #expect(responses.map { $0.headers["X-Part"] } == ["big", "big", "small", "big"])
        #expect(
            responses.map { $0.headers["Content-Length"] } == [
                "\(Self.big.count)", "\(Self.big.count)", "5", "\(Self.big.count)",
            ])
        #expect(responses[0].body == Self.big)
        #expect(responses[1].body.isEmpty)
        #expect(responses[2].body == Data("small".utf8))
        #expect(responses[3].body == Self.big)
    }
}
