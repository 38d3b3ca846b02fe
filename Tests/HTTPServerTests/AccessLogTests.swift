import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// One access log line per request.
@Suite struct AccessLogTests {
    @Test func eachRequest_isLoggedWithWhatItWasAndWhatItGot() async throws {
        let log = LogRecorder()
        let server = try startServer(log: log) { request in
            request.path == "/missing"
                ? .error(404, code: "not_found", message: "no")
                : Response(status: 200, body: Data("hello".utf8))
        }
        let client = try RawClient(port: server.port)
        client.send("GET /a?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.readResponse()
        client.send("DELETE /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.readResponse()
        #expect(await eventually { log.all.count == 2 })

        let entries = log.all
        #expect(entries.map(\.method) == ["GET", "DELETE"])
        #expect(entries.map(\.target) == ["/a?x=1", "/missing"])
        #expect(entries.map(\.status) == [200, 404])
        #expect(entries[0].bytes == 5)
        #expect(
            entries.allSatisfy { $0.remote.hasPrefix("127.0.0.1:") && $0.note == nil && $0.duration >= .zero }
        )
        #expect(entries[0].description.contains(" \"GET /a?x=1\" 200 5B "))
        _ = await server.shutdown()
    }

    @Test func anEntry_printsAsOneLine() {
        let entry = AccessLogEntry(
            date: Date(timeIntervalSince1970: 1_714_564_800.125), remote: "127.0.0.1:5000", method: "PUT",
            target: "/v1/posts/m1/like", status: 200, bytes: 182, duration: .microseconds(1370),
            note: "dropped after apply (fault)")
        #expect(
            entry.description
                == "2024-05-01T12:00:00.125Z 127.0.0.1:5000 \"PUT /v1/posts/m1/like\" 200 182B 1.37ms "
                + "(dropped after apply (fault))")
    }
}
