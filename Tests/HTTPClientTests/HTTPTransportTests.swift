import Foundation
import HTTPClient
import MediaModel
import Mutations
import ServerAPI
import SocketTesting
import Storage
import Synchronization
import Testing
import Wire

/// `HTTPTransport` against scripted peers: what it returns and what it throws, classified like
/// every other transport.
@Suite struct HTTPTransportTests {
    static let request = Request(.get, "/v1/feed", headers: ["Authorization": "Bearer seed-ada"])

    /// The response `body` returns, or the transport error it throws.
    static func outcome(_ body: () async throws -> Response) async -> (
        response: Response?, error: (any Error)?
    ) {
        do { return (try await body(), nil) } catch { return (nil, error) }
    }

    /// The transport error `body` throws, or nil.
    static func failure(_ body: () async throws -> Void) async -> TransportError? {
        do { try await body() } catch let error as TransportError { return error } catch { return nil }
        return nil
    }

    @Test func aRefusedConnection_isOffline() async throws {
        // (a port held bound and not listening, so no other test's server can take it meanwhile)
        let refusing = PortReservation(port: 0)
        let port = try #require(refusing.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let transport = HTTPTransport(baseURL: url, timeout: .seconds(60))
        let error = await Self.failure { _ = try await transport.send(Self.request) }
        refusing.release()
        #expect(error?.errorClass == .offline)
        #expect(error?.isRetryable == true)
        #expect(
            error?.detail
                == "cannot connect to http://127.0.0.1:\(port): the connection was refused; check that "
                + "backend-server is running there (swift run backend-server)")
        #expect(error?.request == "GET /v1/feed")
    }

    @Test func noResponseInTime_isATimeout() async throws {
        // The stub holds the connection far longer than the timeout, so on a loaded machine only
        // the transport's own limit can end the exchange.
        let stub = try StubHTTPServer { connection in
            _ = connection.readRequest()
            _ = connection.waitForClientClose(limit: .seconds(120))
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .milliseconds(200))
        let error = await Self.failure { _ = try await transport.send(Self.request) }
        #expect(error?.errorClass == .timeout)
        #expect(
            error?.detail
                == "no response from \(stub.url.absoluteString) within 0.2 seconds; the server may have applied the request"
        )
        stub.stop()
    }

    @Test func aLongPoll_getsItsWaitOnTopOfTheTimeout() async throws {
        // Given a server that answers after 400 ms and a 200 ms timeout
        let stub = try StubHTTPServer { connection in
            _ = connection.readRequest()
            Thread.sleep(forTimeInterval: 0.4)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            _ = connection.waitForClientClose()
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .milliseconds(200))

        // When the request is a long poll of 30 s, it is allowed 30.2 s (far more than a loaded
        // machine needs for the 400 ms answer; without the wait it would time out at 200 ms)
        let poll = Request(.get, "/v1/events", query: [QueryItem("wait", "30")])
        let response = try await transport.send(poll)
        #expect(response.status == 200)
        #expect(stub.requests.first?.hasPrefix("GET /v1/events?wait=30 HTTP/1.1\r\n") == true)
        stub.stop()
    }

    @Test func cancellingTheTask_cancelsTheExchange() async throws {
        // Given a server that never answers and records when the client hangs up
        let hungUp = Flag()
        let stub = try StubHTTPServer { connection in
            _ = connection.readRequest()
            if connection.waitForClientClose(limit: .seconds(600)) { hungUp.set() }
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))
        let task = Task { try await transport.send(Self.request) }
        let arrival = ContinuousClock.now + .seconds(600)  // a hang guard only
        while stub.requests.isEmpty, ContinuousClock.now < arrival {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(!stub.requests.isEmpty, "the request never reached the server")

        // When the calling task is cancelled
        task.cancel()

        // Then the call fails as cancelled and the connection is dropped
        let error = await Self.failure { _ = try await task.value }
        #expect(error?.errorClass == .cancelled)
        #expect(error?.disposition == .cancelled)
        let hangUp = ContinuousClock.now + .seconds(600)  // a hang guard only
        while !hungUp.isSet, ContinuousClock.now < hangUp { try await Task.sleep(for: .milliseconds(5)) }
        #expect(hungUp.isSet)
        stub.stop()
    }

    @Test func aConnectionClosedBeforeTheResponse_isALostResponse() async throws {
        let stub = try StubHTTPServer { connection in _ = connection.readRequest() }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))
        let like = Request(.put, "/v1/posts/m1/like", headers: ["Idempotency-Key": "k1"])
        let error = await Self.failure { _ = try await transport.send(like) }
        #expect(error?.errorClass == .timeout)
        #expect(error?.isRetryable == true)
        #expect(
            error?.detail.hasPrefix(
                "the response was lost: the connection to \(stub.url.absoluteString) closed") == true)
        // The change was sent once (the transport never resends one), carrying its key.
        #expect(stub.requests.count == 1)
        #expect(stub.requests.allSatisfy { $0.contains("Idempotency-Key: k1\r\n") })
        stub.stop()
    }

    @Test func aChangeGoesOutOnAConnectionOfItsOwn_soALostResponseNeverStalls() async throws {
        // Given a server that answers a connection's first request (closing it when asked to)
        // and loses the response to a second request on the same connection
        let stub = try StubHTTPServer { connection in
            guard let request = connection.readRequest() else { return }
            let close = request.lowercased().contains("\r\nconnection: close\r\n")
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\(close ? "Connection: close\r\n" : "")\r\nok")
            if close { return }
            _ = connection.readRequest()
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(30))

        // When a read and then two changes are sent one after the other
        let read = try await transport.send(Self.request)
        var statuses: [Int] = []
        for key in ["k1", "k2"] {
            let change = Request(.post, "/v1/posts", headers: ["Idempotency-Key": key], body: Data("{}".utf8))
            let outcome = await Self.outcome { try await transport.send(change) }
            statuses.append(
                try #require(outcome.response, "change \(key): \(outcome.error.map { "\($0)" } ?? "")").status
            )
        }

        // Then each change went out on a connection of its own and was answered; on the reused
        // connection the second change's response would have been lost
        #expect(read.status == 200)
        #expect(statuses == [200, 200])
        #expect(stub.connectionsAccepted == 3)
        let changes = stub.requests.filter { $0.hasPrefix("POST ") }
        #expect(changes.count == 2)
        #expect(changes.allSatisfy { $0.lowercased().contains("\r\nconnection: close\r\n") })
        stub.stop()
    }

    @Test func readsShareAKeepAliveConnection() async throws {
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil {
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(30))
        for _ in 0..<3 { _ = try await transport.send(Self.request) }
        #expect(stub.connectionsAccepted == 1)
        #expect(stub.requests.allSatisfy { !$0.lowercased().contains("connection: close") })
        stub.stop()
    }

    @Test func aResponseCutShort_isALostResponse() async throws {
        let stub = try StubHTTPServer { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial")
        }
        let transport = HTTPTransport(baseURL: stub.url, timeout: .seconds(60))
        let error = await Self.failure { _ = try await transport.send(Self.request) }
        #expect(error?.errorClass == .timeout)
        #expect(error?.detail.hasPrefix("the response was lost") == true)
        stub.stop()
    }

    @Test func aFailedStatus_isReturnedWithItsRetryAfter() async throws {
        // Given a server that rate-limits with a Retry-After
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil {
                let body = #"{"error":{"code":"rate_limited","message":"slow down"}}"#
                connection.write(
                    "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
        }
        let transport = HTTPTransport(baseURL: stub.url)

        // When a request is sent
        let response = try await transport.send(Self.request)

        // Then the response is returned, not thrown, and classifies like any other transport's
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "7")
        let error = try #require(response.error(for: Self.request, now: Date()))
        #expect(error.errorClass == .rateLimited)
        #expect(error.retryAfter == .seconds(7))
        #expect(error.serverCode == "rate_limited")

        // and through the API client the caller gets the same error
        let client = APIClient(transport: transport, bearerToken: "seed-ada")
        let thrown = await Self.failure { _ = try await client.homeFeed() }
        #expect(thrown?.errorClass == .rateLimited)
        #expect(thrown?.retryAfter == .seconds(7))
        stub.stop()
    }

    @Test func headersMethodAndBody_passThrough() async throws {
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil {
                connection.write("HTTP/1.1 204 No Content\r\n\r\n")
            }
        }
        let transport = HTTPTransport(baseURL: stub.url)
        let like = try Mutation.like("m 42").request(clientToken: "tok-1", bearerToken: "seed-ada")
        #expect(try await transport.send(like).status == 204)
        let post = try Mutation.post(text: "hi", attachments: []).request(
            clientToken: "tok-2", bearerToken: "seed-ada")
        #expect(try await transport.send(post).status == 204)

        let requests = stub.requests
        #expect(requests.count == 2)
        let first = requests.first ?? ""
        #expect(first.hasPrefix("PUT /v1/posts/m%2042/like HTTP/1.1\r\n"))
        #expect(first.contains("Authorization: Bearer seed-ada\r\n"))
        #expect(first.contains("Idempotency-Key: tok-1\r\n"))
        // A body-less change is framed with a zero length, never chunked.
        #expect(first.lowercased().contains("content-length: 0\r\n"))
        #expect(!first.lowercased().contains("transfer-encoding"))
        let second = requests.last ?? ""
        #expect(second.hasPrefix("POST /v1/posts HTTP/1.1\r\n"))
        #expect(second.contains("Content-Type: application/json\r\n"))
        #expect(
            second.hasSuffix(#"{"attachments":[],"text":"hi"}"#)
                || second.hasSuffix(#"{"text":"hi","attachments":[]}"#))
        stub.stop()
    }

    @Test func aBaseURLWithAPath_prefixesEveryTarget() async throws {
        let stub = try StubHTTPServer { connection in
            while connection.readRequest() != nil { connection.write("HTTP/1.1 204 No Content\r\n\r\n") }
        }
        let base = try #require(URL(string: "http://127.0.0.1:\(stub.port)/api/"))
        let transport = HTTPTransport(baseURL: base)
        _ = try await transport.send(Request(.get, "/v1/feed", query: [QueryItem("cursor", "a b")]))
        #expect(stub.requests.first?.hasPrefix("GET /api/v1/feed?cursor=a%20b HTTP/1.1\r\n") == true)
        stub.stop()
    }
}

/// A flag set from another thread.
final class Flag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
