import Foundation
import HTTPServer
import ServerTesting
import Storage
import Testing
import Wire

/// Keep-alive, `Connection: close`, HTTP/1.0, pipelining, `Expect: 100-continue` and HEAD, on a
/// raw socket against a handler that echoes what it got.
@Suite struct ConnectionTests {
    /// Answers `METHOD target body` as text.
    static func echo(_ request: Request) async -> Response {
        Response(
            status: 200, headers: ["Content-Type": "text/plain"],
            body: Data(
                "\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))".utf8))
    }

    @Test func keepAlive_servesManyRequestsOnOneConnection() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        for index in 0..<5 {
            client.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(String(decoding: response.body, as: UTF8.self) == "GET /n/\(index) ")
            #expect(!response.closes)
        }
        #expect(server.statistics.connectionsAccepted == 1)
        #expect(await eventually { server.statistics.responses == 5 })
        _ = await server.shutdown()
    }

    @Test func connectionClose_isHonoredAfterTheResponse() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(response.closes)
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }

    @Test func http10_closesUnlessAskedToKeepAlive() async throws {
        let server = try startServer(handler: Self.echo)
        let plain = try RawClient(port: server.port)
        plain.send("GET /old HTTP/1.0\r\n\r\n")
        let first = try await plain.readResponse()
        #expect(first.status == 200)
        #expect(first.closes)
        #expect(await plain.isClosedByServer())

        let kept = try RawClient(port: server.port)
        kept.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try await kept.readResponse()
        #expect(second.headers["Connection"] == "keep-alive")
        kept.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(String(decoding: try await kept.readResponse().body, as: UTF8.self) == "GET /b ")
        _ = await server.shutdown()
    }

    @Test func pipelinedRequests_areAnsweredInOrder() async throws {
        // Given a handler that answers the first request last
        let server = try startServer { request in
            if request.path == "/slow" { try? await Task.sleep(for: .milliseconds(50)) }
            return await Self.echo(request)
        }
        let client = try RawClient(port: server.port)

        // When three requests are sent in one write, the last with a body
        client.send(
            "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")

        // Then the responses come back in request order
        var bodies: [String] = []
        for _ in 0..<3 {
            bodies.append(String(decoding: try await client.readResponse().body, as: UTF8.self))
        }
        #expect(bodies == ["GET /slow ", "GET /fast ", "POST /body hello"])
        _ = await server.shutdown()
    }

    @Test func pipelinedRequestsBeyondWhatTheServerBuffers_areAllAnswered_inOrder() async throws {
        // Given a server that keeps about 67 KB of pipelined input behind the request it answers
        // (a head's worth plus 64 KiB), and stops reading the socket beyond that
        let server = try startServer(
            configure: {
                $0.limits.requestLineBytes = 1024
                $0.limits.headerBytes = 2048
            }, handler: Self.echo)
        let client = try RawClient(port: server.port)
        let padding = String(repeating: "p", count: 560)
        let count = 320

        // When 320 requests of about 640 bytes (200 KB, more than it reads) are sent at once
        client.send(
            (0..<count).map { "GET /r\($0) HTTP/1.1\r\nHost: x\r\nX-Padding: \(padding)\r\n\r\n" }.joined())

        // Then reading resumes as the queue drains, and every one is answered, in order
        var bodies: [String] = []
        for _ in 0..<count {
            bodies.append(String(decoding: try await client.readResponse().body, as: UTF8.self))
        }
        #expect(bodies == (0..<count).map { "GET /r\($0) " })
        _ = await server.shutdown()
    }

    @Test func aBodyInPieces_isAssembledBeforeTheHandlerRuns() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("POST /parts HTTP/1.1\r\nHo")
        try await Task.sleep(for: .milliseconds(20))
        client.send("st: x\r\nContent-Length: 6\r\n\r\nab")
        try await Task.sleep(for: .milliseconds(20))
        client.send("cdef")
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /parts abcdef")
        _ = await server.shutdown()
    }

    @Test func expect100Continue_getsTheGoAheadBeforeTheBody() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("PUT /up HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        let interim = try await client.readResponse()
        #expect(interim.status == 100)
        client.send("abc")
        #expect(String(decoding: try await client.readResponse().body, as: UTF8.self) == "PUT /up abc")
        _ = await server.shutdown()
    }

    @Test func head_isHandledAsGet_andGetsTheLengthButNoBody() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try await client.readResponse(headOnly: true)
        #expect(head.headers["Content-Length"] == "\("GET /h ".utf8.count)")
        #expect(head.body.isEmpty)
        #expect(String(decoding: try await client.readResponse().body, as: UTF8.self) == "GET /after ")
        _ = await server.shutdown()
    }

    @Test func aClientThatHalfCloses_stillGetsItsAnswer() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("GET /half HTTP/1.1\r\nHost: x\r\n\r\n")
        client.finishSending()
        let response = try await client.readResponse()
        #expect(String(decoding: response.body, as: UTF8.self) == "GET /half ")
        // Whether the response says `Connection: close` depends on whether the end of stream was
        // read before it was written; either way the server closes once it has answered.
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }

    @Test func theServersFields_replaceTheHandlers() async throws {
        // Given a handler that sets framing fields itself, and one that could split the response
        let server = try startServer { _ in
            Response(
                status: 200,
                headers: [
                    "Content-Length": "999", "Connection": "close", "X-Kept": "yes",
                    "X-Evil": "a\r\nX-Injected: 1",
                ],
                body: Data("ok".utf8))
        }
        let client = try RawClient(port: server.port)
        client.send(RawClient.get("/"))
        let response = try await client.readResponse()
        #expect(response.headers["Content-Length"] == "2")
        #expect(response.headers["Connection"] == nil)
        #expect(response.headers["X-Kept"] == "yes")
        #expect(response.headers["X-Evil"] == nil && response.headers["X-Injected"] == nil)
        #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
        _ = await server.shutdown()
    }

    @Test func emptyLinesBeforeARequest_areIgnored() async throws {
        let server = try startServer(handler: Self.echo)
        let client = try RawClient(port: server.port)
        client.send("\r\n\r\nGET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(String(decoding: try await client.readResponse().body, as: UTF8.self) == "GET /x ")
        _ = await server.shutdown()
    }
}
