import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// Issue 34: bodies announced and never sent took the whole body budget, so every request with a
/// body got 503 (two connections announcing 32 MiB, made again every 10 s, were enough).
@Suite struct BodyBudgetAttackTests {
    static let kib32 = 32 * 1024

    /// A POST head announcing a 32 KiB body and asking for the go-ahead, which the server sends
    /// once it has read the head: the test's sign that the head was taken in.
    static let announcing =
        "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: \(kib32)\r\nExpect: 100-continue\r\n\r\n"

    @Test func bodiesAnnouncedAndNotSent_holdNoBudget_andASmallPostIsServed() async throws {
        // Given bodies of up to 32 KiB, 64 KiB of them in flight at once
        let server = try startServer(configure: {
            $0.limits = HTTPServer.Limits(bodyBytes: Self.kib32, bodyBytesInFlight: 2 * Self.kib32)
        }) { request in Response(status: 200, body: Data("\(request.body.count)".utf8)) }

        // When two connections announce 32 KiB bodies and send none of them
        let holders = try (0..<2).map { _ in try RawClient(port: server.port, from: "127.0.0.2") }
        for holder in holders {
            holder.send(Self.announcing)
            #expect(try await holder.readResponse().status == 100)
        }

        // Then they hold none of the budget
        #expect(server.statistics.bodyBytesInFlight == 0)

        // And a small POST from someone else is served
        let client = try RawClient(port: server.port)
        client.send(
            "POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n"
                + String(repeating: "p", count: 40))
        let response = try await client.readResponse()
        #expect(response.status == 200, "\(response.status) \(response.errorCode ?? "")")
        #expect(String(decoding: response.body, as: UTF8.self) == "40")
        _ = await server.shutdown()
    }

    @Test func aConnectionThatAnnouncesABodyAndSendsNothing_isClosedAfterTheBodyIdleTimeout() async throws {
        // Given a short body idle timeout (and the long request timeout of test servers)
        let server = try startServer(configure: { $0.bodyIdleTimeout = .milliseconds(200) }) { _ in
            Response(status: 204)
        }

        // When a client announces a body, sends a part of it and then nothing
        let client = try RawClient(port: server.port)
        client.send(
            "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "a", count: 10)
        )

        // Then it is answered 408 and closed
        let response = try await client.readResponse()
        #expect(response.status == 408)
        #expect(response.errorCode == "body_timeout")
        #expect(
            response.errorMessage
                == "no byte of the request's body arrived for 0.2 s (10 of 1000 bytes came); send the body without pausing"
        )
        #expect(response.closes)
        #expect(await client.isClosedByServer())
        #expect(await eventually { server.statistics.connectionsOpen == 0 })
        _ = await server.shutdown()
    }

    @Test func aBodyOverTheRoutesLimit_isAnswered413FromTheHead_withoutReadingIt() async throws {
        // Given a route that declares bodies of at most 64 bytes, under a 1 MiB server limit
        let server = try startServer(configure: {
            $0.bodyLimit = { _, target in target.hasPrefix("/v1/sessions") ? 64 : 1 << 20 }
        }) { _ in Response(status: 204) }

        // When a head announces 65 bytes for it and sends no body
        let client = try RawClient(port: server.port)
        client.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n")

        // Then the head alone is answered 413 and the connection closed
        let response = try await client.readResponse()
        #expect(response.status == 413)
        #expect(response.errorCode == "body_too_large")
        #expect(
            response.errorMessage
                == "the body is 65 bytes, more than the 64 bytes POST /v1/sessions accepts; send less")
        #expect(response.closes)
        #expect(await client.isClosedByServer())

        // And another route still takes its larger body
        let other = try RawClient(port: server.port)
        other.send(
            "POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n"
                + String(repeating: "a", count: 65))
        #expect(try await other.readResponse().status == 204)
        _ = await server.shutdown()
    }
}

/// Issue 34: connections held open took every slot: 4 addresses x 256 kept-alive connections (a
/// GET every 50 s) got 685 of 685 legitimate requests answered 503, and so did slow heads
/// (slowloris) from 8 addresses.
@Suite struct ConnectionSlotAttackTests {
    static let get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func whenIdleConnectionsHoldEverySlot_aNewAddressIsServed_andTheOldestIdleIsClosed() async throws {
        // Given 16 slots (two of them kept for addresses that hold none)
        let server = try startServer(configure: {
            $0.maxConnections = 16
            $0.maxConnectionsPerAddress = 16
        }) { _ in Response(status: 204) }
        #expect(server.connectionLimit == 16)

        // When 14 kept-alive connections from two addresses, then one from each of two more,
        // each make a request in turn and stay open
        let sources =
            Array(repeating: "127.0.0.2", count: 7) + Array(repeating: "127.0.0.3", count: 7) + [
                "127.0.0.4", "127.0.0.5",
            ]
        var idle: [RawClient] = []
        for source in sources {
            let client = try RawClient(port: server.port, from: source)
            client.send(Self.get)
            #expect(try await client.readResponse().status == 204)
            idle.append(client)
        }
        #expect(await eventually { server.statistics.connectionsOpen == 16 })

        // Then a connection from a fifth address is served
        let newcomer = try RawClient(port: server.port, from: "127.0.0.9")
        newcomer.send(Self.get)
        let response = try await newcomer.readResponse()
        #expect(response.status == 204, "\(response.status) \(response.errorCode ?? "")")

        // And the connection idle the longest was closed to make room, and only that one
        #expect(await idle[0].isClosedByServer())
        for (index, client) in idle.enumerated().dropFirst() {
            client.send(Self.get)
            #expect(try await client.readResponse().status == 204, "connection \(index) was closed")
        }
        _ = await server.shutdown()
    }

    @Test func slowHeadsFromSeveralAddresses_cannotTakeEverySlot() async throws {
        // Given 16 slots
        let server = try startServer(configure: {
            $0.maxConnections = 16
            $0.maxConnectionsPerAddress = 16
        }) { _ in Response(status: 204) }

        // When eight addresses (more than the two slots kept for new addresses) open 4
        // connections each and send only part of a head on them
        var slow: [RawClient] = []
        for address in 2...9 {
            for _ in 0..<4 {
                let client = try RawClient(port: server.port, from: "127.0.0.\(address)")
                client.send("GET / HTTP/1.1\r\nHost: x\r\n")
                slow.append(client)
            }
        }

        // Then another address is still served
        let newcomer = try RawClient(port: server.port, from: "127.0.0.20")
        newcomer.send(Self.get)
        let response = try await newcomer.readResponse()
        #expect(response.status == 204, "\(response.status) \(response.errorCode ?? "")")
        #expect(server.statistics.connectionsOpen <= 16)
        #expect(slow.count == 32)
        _ = await server.shutdown()
    }
}

/// Issue 34: requests whose lines end in a bare LF were accepted; a strict server (and a proxy in
/// front of it) may split them differently, so they are refused.
@Suite struct BareLineFeedAttackTests {
    @Test(arguments: [
        "GET / HTTP/1.1\nHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n\n",
        "\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func aLineEndingInABareLF_isRefusedWith400(_ request: String) async throws {
        let server = try startServer { _ in Response(status: 204) }
        let client = try RawClient(port: server.port)
        client.send(request)
        let response = try await client.readResponse()
        #expect(response.status == 400)
        #expect(response.errorCode == "bad_line_ending")
        #expect(response.closes)
        #expect(await client.isClosedByServer())
        _ = await server.shutdown()
    }
}
