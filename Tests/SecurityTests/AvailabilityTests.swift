import Foundation
import HTTPServer
import ServerTesting
import Testing
import Wire

/// The server stays available to others: connections that send nothing, a flood of connections
/// from one address, and bodies held half-sent cannot lock everyone else out. Each test uses
/// small limits (8 connections, 64 KiB) so it stays cheap.
@Suite struct AvailabilityTests {
    @Test func aNewConnectionThatSendsNothing_isClosedWhenTheRequestTimeoutEnds() async throws {
        // Given a 1 s request timeout and an idle timeout far longer than any wait below
        let server = try startServer(configure: {
            $0.requestTimeout = .seconds(1)
            $0.idleTimeout = .seconds(3600)
        }) { _ in Response(status: 204) }

        // When a client connects and sends nothing
        let silent = try RawClient(port: server.port, readTimeout: .seconds(30))

        // Then the server closes it (without waiting the hour of the idle timeout)
        #expect(await silent.isClosedByServer())
        #expect(await eventually { server.statistics.connectionsOpen == 0 })
        _ = await server.shutdown()
    }

    @Test func silentConnectionsFillingEverySlot_areClosed_andTheServerServesAgain() async throws {
        // Given a server with 8 slots and a 1 s request timeout
        let server = try startServer(configure: {
            $0.maxConnections = 8
            $0.maxConnectionsPerAddress = 8
            $0.requestTimeout = .seconds(1)
            $0.idleTimeout = .seconds(3600)
        }) { _ in Response(status: 204) }
        // (Not checked that all 8 are open at once: on a busy machine the first may already be
        // closed by the time the last connects.)
        let silent = try (0..<8).map { _ in try RawClient(port: server.port, readTimeout: .seconds(30)) }

        // When they have been closed
        for client in silent { #expect(await client.isClosedByServer()) }
        #expect(await eventually { server.statistics.connectionsOpen == 0 })

        // Then a new client is served
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 204)
        _ = await server.shutdown()
    }

    @Test func aFloodFromOneAddress_takesOnlyItsShare_andAnotherAddressIsServed() async throws {
        // Given 8 slots, at most 4 per address
        let server = try startServer(configure: {
            $0.maxConnections = 8
            $0.maxConnectionsPerAddress = 4
        }) { _ in Response(status: 204) }

        // When one address holds 4 connections open
        let flood = try (0..<4).map { _ in try RawClient(port: server.port) }
        #expect(await eventually { server.statistics.connectionsOpen == 4 })

        // Then its fifth is refused with 503 and closed
        let fifth = try RawClient(port: server.port)
        fifth.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = try await fifth.readResponse()
        #expect(refused.status == 503)
        #expect(refused.errorCode == "too_many_connections")
        #expect(refused.headers["Retry-After"] == "1")
        #expect(await fifth.isClosedByServer())

        // And another address is still served
        let other = try RawClient(port: server.port, from: "127.0.0.2")
        other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await other.readResponse().status == 204)
        #expect(flood.count == 4)
        _ = await server.shutdown()
    }

    @Test func maxConnectionsPerAddress_mustBePositive() {
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(HTTPServer.Configuration(port: 0, maxConnectionsPerAddress: 0)) { _ in
                Response(status: 204)
            }
        }
    }
}

/// The memory that bodies in flight may hold together is capped, and handed back.
@Suite struct BodiesInFlightTests {
    static let kib32 = 32 * 1024

    /// A POST head announcing a 32 KiB body.
    static let head = "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: \(kib32)\r\n\r\n"

    @Test func bodiesOverTheCap_areRefusedWith503_andTheBudgetComesBack() async throws {
        // Given bodies of up to 32 KiB, 64 KiB of them in flight at once (counted as they arrive)
        let server = try startServer(configure: {
            $0.limits = HTTPServer.Limits(bodyBytes: Self.kib32, bodyBytesInFlight: 2 * Self.kib32)
        }) { request in Response(status: 200, body: Data("\(request.body.count)".utf8)) }

        // When two clients hold 31 KiB of their 32 KiB bodies
        let first = try RawClient(port: server.port)
        let second = try RawClient(port: server.port)
        for client in [first, second] { client.send(Self.head + String(repeating: "a", count: 31 * 1024)) }
        #expect(await eventually { server.statistics.bodyBytesInFlight == 62 * 1024 })

        // Then a third body is refused as soon as its bytes would go over, and its connection closed
        let third = try RawClient(port: server.port)
        third.send(Self.head + String(repeating: "c", count: 4 * 1024))
        let refused = try await third.readResponse()
        #expect(refused.status == 503)
        #expect(refused.errorCode == "server_busy")
        #expect(refused.headers["Retry-After"] == "1")
        #expect(await third.isClosedByServer())

        // And once the first body is complete and answered, another body fits
        first.send(String(repeating: "a", count: 1024))
        #expect(String(decoding: try await first.readResponse().body, as: UTF8.self) == "\(Self.kib32)")
        #expect(await eventually { server.statistics.bodyBytesInFlight == 31 * 1024 })
        let fourth = try RawClient(port: server.port)
        fourth.send(Self.head + String(repeating: "b", count: Self.kib32))
        #expect(try await fourth.readResponse().status == 200)

        // And a client that leaves with its body half-sent gives its share back
        second.reset()
        #expect(await eventually { server.statistics.bodyBytesInFlight == 0 })
        _ = await server.shutdown()
    }

    @Test func aCapBelowTheBodyLimit_isRefused() {
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(
                HTTPServer.Configuration(
                    port: 0, limits: HTTPServer.Limits(bodyBytes: 1024, bodyBytesInFlight: 1023))
            ) { _ in Response(status: 204) }
        }
    }
}
