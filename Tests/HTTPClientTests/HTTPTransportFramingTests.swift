import Foundation
import HTTPClient
import ServerAPI
import Synchronization
import Testing
import Wire

/// `HTTPTransport`'s own HTTP/1.1 client against scripted peers: how it frames responses, and
/// what it does when a kept connection or a change's connection dies.
@Suite struct HTTPTransportFramingTests {
    static let read = Request(.get, "/v1/feed")

    @Test func aChunkedResponse_isReassembledAndTheConnectionKept() async throws {
        // Given a server that answers the first request in chunks (with a chunk extension and a
        // trailer) and the second with a length, on one connection
        let stub = try StubHTTPServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            connection.write("7;note=x\r\n, world\r\n0\r\nX-Checksum: 1\r\n\r\n")
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext")
            _ = connection.waitForClientClose(limit: .seconds(60))
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))

        // When two reads are sent
        let first = try await transport.send(Self.read)
        let second = try await transport.send(Self.read)

        // Then the chunks make one body, and the connection, read to its end, carried the next
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "hello, world")
        #expect(String(decoding: second.body, as: UTF8.self) == "next")
        #expect(stub.connectionsAccepted == 1)
        stub.stop()
    }

    @Test func aResponseWithoutALength_isReadUntilTheServerCloses() async throws {
        let stub = try StubHTTPServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of ")
            connection.write("it, until the end")
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))

        let first = try await transport.send(Self.read)
        let second = try await transport.send(Self.read)

        #expect(String(decoding: first.body, as: UTF8.self) == "all of it, until the end")
        #expect(String(decoding: second.body, as: UTF8.self) == "all of it, until the end")
        // A connection whose end marked the body's end cannot be kept.
        #expect(stub.connectionsAccepted == 2)
        stub.stop()
    }

    @Test func headAnd204And304_haveNoBody() async throws {
        // Given a server that answers HEAD with the length a GET would have, then a 204, a 304
        // and a 200 on the same connection
        let stub = try StubHTTPServer { connection in
            while let request = connection.readRequest() {
                if request.hasPrefix("HEAD ") {
                    connection.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
                } else if request.hasPrefix("GET /empty ") {
                    connection.write("HTTP/1.1 204 No Content\r\n\r\n")
                } else if request.hasPrefix("GET /same ") {
                    connection.write("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n")
                } else {
                    connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                }
            }
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))

        // When the four are sent one after the other
        let head = try await transport.send(Request(.head, "/v1/feed"))
        let empty = try await transport.send(Request(.get, "/empty"))
        let same = try await transport.send(Request(.get, "/same"))
        let full = try await transport.send(Self.read)

        // Then none but the last waited for a body, and all went over one connection
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "5")
        #expect(head.body.isEmpty)
        #expect(empty.status == 204)
        #expect(empty.body.isEmpty)
        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        #expect(String(decoding: full.body, as: UTF8.self) == "ok")
        #expect(stub.connectionsAccepted == 1)
        #expect(
            stub.requests.first?.hasPrefix("HEAD /v1/feed HTTP/1.1\r\nHost: 127.0.0.1:\(stub.port)\r\n")
                == true)
        stub.stop()
    }

    @Test func aKeptConnectionTheServerClosed_isReplacedForARead() async throws {
        // Given a server that answers a connection's first request, then closes it on reading the
        // next without a response (as a server does that drops an idle keep-alive connection
        // just as a request arrives)
        let stub = try StubHTTPServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            _ = connection.readRequest()
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))

        // When two reads are sent one after the other
        let first = try await transport.send(Self.read)
        let second = await HTTPTransportTests.outcome { try await transport.send(Self.read) }

        // Then the second, lost with the kept connection before any response, was sent once
        // more on a new connection and answered
        #expect(first.status == 200)
        #expect(second.response?.status == 200, "\(second.error.map { "\($0)" } ?? "")")
        #expect(stub.connectionsAccepted == 2)
        #expect(stub.requests.count == 3)
        stub.stop()
    }

    @Test func aChangeWhoseConnectionDiesMidResponse_isLostAndNotResent() async throws {
        // Given a server that starts a response and closes the connection
        let stub = try StubHTTPServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 201 Created\r\nContent-Length: 50\r\n\r\n{\"id\":")
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))

        // When a change is sent
        let post = Request(.post, "/v1/posts", headers: ["Idempotency-Key": "k1"], body: Data("{}".utf8))
        let error = await HTTPTransportTests.failure { _ = try await transport.send(post) }

        // Then it is a lost response, sent once: resending is the caller's, with its key
        #expect(error?.errorClass == .timeout)
        #expect(
            error?.detail
                == "the response was lost: the connection to \(stub.url.absoluteString) closed before the whole "
                + "response arrived (the connection closed after 6 of 50 body bytes); the server may have "
                + "applied the request")
        #expect(stub.connectionsAccepted == 1)
        #expect(stub.requests.count == 1)
        stub.stop()
    }

    @Test func anUnknownHost_isOffline() async throws {
        let url = try #require(URL(string: "http://no-such-host.invalid:8080"))
        let transport = HTTPTransport(baseURL: url, timeout: .seconds(60))
        let error = await HTTPTransportTests.failure { _ = try await transport.send(Self.read) }
        #expect(error?.errorClass == .offline)
        #expect(error?.detail.hasPrefix("cannot find the host of http://no-such-host.invalid:8080 (") == true)
    }
}
