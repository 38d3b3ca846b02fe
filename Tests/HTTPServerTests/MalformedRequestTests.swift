import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// Requests the server refuses itself, read off a raw socket: each gets its status and the JSON
/// error body, `Connection: close`, and then the connection is closed; the handler never runs.
@Suite struct MalformedRequestTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bytes: String
        var status: Int
        var code: String
        var message: String?

        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "two spaces in the request line", bytes: "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
            code: "bad_request_line",
            message: "request line 'GET  / HTTP/1.1' is not 'METHOD TARGET HTTP/1.1' with single spaces"),
        Case(
            name: "a header line ending in a bare LF",
            bytes: "GET / HTTP/1.1\r\nHost: x\nAccept: */*\r\n\r\n",
            status: 400, code: "bad_line_ending",
            message: "line 2 of the request's head ends with a bare LF; end every line with CRLF"),
        Case(
            name: "no version", bytes: "GET /\r\nHost: x\r\n\r\n", status: 400, code: "bad_request_line"),
        Case(
            name: "garbage", bytes: "\u{01}\u{02}\u{03}\r\n\r\n", status: 400, code: "bad_request_line"),
        Case(
            name: "a space in the target", bytes: "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
            code: "bad_request_line"),
        Case(
            name: "a control character in the target", bytes: "GET /a\u{7F}b HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400, code: "bad_request_target",
            message:
                "request target '/a\\x7Fb' holds spaces, control or non-ASCII characters; percent-encode them"
        ),
        Case(
            name: "an absolute-form target", bytes: "GET http://x/v1/feed HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400, code: "bad_request_target",
            message: "request target 'http://x/v1/feed' does not start with '/'; send an origin-form target "
                + "such as '/v1/feed?limit=20'"),
        Case(
            name: "a malformed percent escape", bytes: "GET /v1/feed?cursor=%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400, code: "bad_request_target"),
        Case(
            name: "an unknown version", bytes: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505,
            code: "http_version_not_supported",
            message: "protocol 'HTTP/2.0' is not supported; this server speaks HTTP/1.1 and HTTP/1.0"),
        Case(
            name: "a lowercase method", bytes: "get / HTTP/1.1\r\nHost: x\r\n\r\n", status: 501,
            code: "method_not_implemented",
            message: "method 'get' is not known; methods are case-sensitive, so send 'GET'"),
        Case(
            name: "a method with a slash", bytes: "GE/T / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
            code: "bad_request_line"),
        Case(
            name: "no Host in HTTP/1.1", bytes: "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", status: 400,
            code: "bad_host", message: "an HTTP/1.1 request needs a Host header; add 'Host: 127.0.0.1:PORT'"),
        Case(
            name: "two Host headers", bytes: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400,
            code: "bad_host"),
        Case(
            name: "two Host headers in other cases", bytes: "GET / HTTP/1.1\r\nhost: a\r\nHOST: b\r\n\r\n",
            status: 400, code: "bad_host", message: "the request has 2 Host headers; send exactly one"),
        Case(
            name: "conflicting lengths in other cases",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\nCONTENT-LENGTH: 3\r\n\r\nabc",
            status: 400, code: "bad_content_length"),
        Case(
            name: "a lowercase transfer-encoding beside a length",
            bytes:
                "POST /v1/posts HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
            status: 400, code: "conflicting_framing"),
        Case(
            name: "a header without a colon", bytes: "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
            status: 400,
            code: "bad_header", message: "header line 'NoColon' has no colon; write 'Name: value'"),
        Case(
            name: "whitespace before the colon", bytes: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", status: 400,
            code: "bad_header",
            message: "header field 'Host ' has whitespace before its colon; write 'Name: value'"),
        Case(
            name: "a folded header", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  continued\r\n\r\n",
            status: 400, code: "bad_header"),
        Case(
            name: "an empty field name", bytes: "GET / HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n", status: 400,
            code: "bad_header"),
        Case(
            name: "a bare CR in a value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
            status: 400,
            code: "bad_header"),
        Case(
            name: "a NUL in a value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400,
            code: "bad_header"),
        Case(
            name: "a non-numeric Content-Length",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n", status: 400,
            code: "bad_content_length"),
        Case(
            name: "a negative Content-Length",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400,
            code: "bad_content_length"),
        Case(
            name: "conflicting Content-Lengths",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc",
            status: 400, code: "bad_content_length"),
        Case(
            name: "chunked without a length",
            bytes:
                "POST /v1/posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            status: 411, code: "length_required",
            message:
                "chunked request bodies are not accepted (Transfer-Encoding 'chunked'); send the body with "
                + "Content-Length"),
        Case(
            name: "gzip then chunked",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            status: 411, code: "length_required"),
        Case(
            name: "chunked and a Content-Length",
            bytes:
                "POST /v1/posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}",
            status: 400, code: "conflicting_framing",
            message:
                "the request has both Transfer-Encoding 'chunked' and Content-Length; send only Content-Length"
        ),
        Case(
            name: "a coding other than chunked",
            bytes: "POST /v1/posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", status: 400,
            code: "bad_transfer_encoding"),
        Case(
            name: "Transfer-Encoding in HTTP/1.0",
            bytes: "POST /v1/posts HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400,
            code: "bad_transfer_encoding"),
        Case(
            name: "two Authorization headers",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n",
            status: 400, code: "bad_authorization",
            message: "the request has 2 Authorization headers; send exactly one"),
    ]

    @Test(arguments: cases)
    func aMalformedRequest_isRefusedWithTheSharedErrorBodyAndClosed(_ testCase: Case) async throws {
        // Given a server whose handler records whether it ran
        let calls = LogRecorder()
        let server = try startServer { request in
            calls.append(
                AccessLogEntry(
                    date: Date(), remote: "", method: "\(request.method)", target: request.target, status: 0,
                    bytes: 0, duration: .zero))
            return Response(status: 200)
        }

        // When the malformed request is sent
        let client = try RawClient(port: server.port)
        client.send(testCase.bytes)
        let response = try await client.readResponse()

        // Then it is refused with the JSON error body, the connection closes, no handler ran
        #expect(response.status == testCase.status)
        #expect(response.errorCode == testCase.code)
        if let message = testCase.message { #expect(response.errorMessage == message) }
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.closes)
        #expect(await client.isClosedByServer())
        #expect(calls.all.isEmpty)
        #expect(server.statistics.rejected == 1)
        _ = await server.shutdown()
    }

    @Test func aRequestLineOverTheLimit_is414EvenBeforeItEnds() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        // 8 KiB of target and no line end yet: the server does not wait for the rest.
        client.send("GET /" + String(repeating: "a", count: 8 * 1024 + 10))
        let response = try await client.readResponse()
        #expect(response.status == 414)
        #expect(response.errorCode == "request_line_too_long")
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }

    @Test func aRequestLineAtTheLimit_isAccepted() async throws {
        let server = try startServer { _ in Response(status: 204) }
        let client = try RawClient(port: server.port)
        let target = "/" + String(repeating: "a", count: 8 * 1024 - "GET  HTTP/1.1".utf8.count - 1)
        let line = "GET \(target) HTTP/1.1"
        #expect(line.utf8.count == 8 * 1024)
        client.send(line + "\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 204)
        _ = await server.shutdown()
    }

    @Test func headersOverTheLimit_are431() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        let field = "X-Padding: " + String(repeating: "p", count: 1000) + "\r\n"
        client.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: field, count: 33))
        let response = try await client.readResponse()
        #expect(response.status == 431)
        #expect(response.errorCode == "headers_too_large")
        #expect(
            response.errorMessage
                == "the header fields are larger than 32768 bytes in total; send fewer or shorter fields")
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }

    @Test func aBodyOverTheLimit_is413BeforeItIsSent() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        client.send("POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: \(1024 * 1024 + 1)\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.status == 413)
        #expect(response.errorCode == "body_too_large")
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }

    @Test func aBodyAtTheLimit_reachesTheHandler() async throws {
        let server = try startServer { request in
            Response(status: 200, body: Data("\(request.body.count)".utf8))
        }
        let client = try RawClient(port: server.port)
        let body = [UInt8](repeating: 0x61, count: 1024 * 1024)
        client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(body)
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "\(1024 * 1024)")
        _ = await server.shutdown()
    }

    @Test func theLimits_canBeConfigured() async throws {
        let server = try startServer(configure: {
            $0.limits = HTTPServer.Limits(requestLineBytes: 64, headerBytes: 128, bodyBytes: 10)
        }) { _ in Response(status: 200) }
        for (request, status) in [
            ("GET /\(String(repeating: "a", count: 70)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-A: \(String(repeating: "a", count: 130))\r\n\r\n", 431),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", 413),
        ] {
            let client = try RawClient(port: server.port)
            client.send(request)
            #expect(try await client.readResponse().status == status)
        }
        _ = await server.shutdown()
    }

    @Test func theRefusal_isInTheAccessLogWithDashesForWhatCouldNotBeRead() async throws {
        let log = LogRecorder()
        let server = try startServer(log: log) { _ in Response(status: 200) }
        let client = try RawClient(port: server.port)
        client.send("GET  / HTTP/1.1\r\n\r\n")
        _ = try await client.readResponse()
        #expect(await eventually { log.all.count == 1 })
        let entry = try #require(log.all.first)
        #expect(entry.method == "-" && entry.target == "-" && entry.status == 400)
        #expect(entry.remote.hasPrefix("127.0.0.1:"))
        _ = await server.shutdown()
    }
}
