import Foundation
import HTTPServer
import ServerTesting
import SocketTesting
import Testing
import Wire

/// Graceful shutdown: stop accepting, finish what is in flight within the grace period, then
/// close.
@Suite struct ShutdownTests {
    @Test func shutdown_finishesTheRequestInFlightAndRefusesNewConnections() async throws {
        // Given a request whose handler waits on a gate, and an idle kept-alive connection
        let gate = Gate()
        let server = try startServer { request in
            if request.path == "/slow" { await gate.wait() }
            return Response(status: 200, body: Data(request.path.utf8))
        }
        let idle = try RawClient(port: server.port)
        idle.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await idle.readResponse()
        let busy = try RawClient(port: server.port)
        busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { gate.arrivals == 1 })

        // When the server shuts down with the handler still running
        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(60)) }
        #expect(await eventually { PortReservation.nobodyListens(on: server.port) })
        #expect(await idle.isClosedByServer())
        gate.open()

        // Then the request in flight is answered, told the connection closes, and closed
        let response = try await busy.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "/slow")
        #expect(response.closes)
        #expect(await busy.isClosedByServer())
        let report = await shutdown.value
        #expect(report.finished == 1)
        #expect(report.abandoned == 0)
        #expect(report.connectionsClosed >= 2)
    }

    @Test func atTheEndOfTheGracePeriod_handlersStillRunningAreCancelled() async throws {
        // Given a handler that only ends when cancelled
        let cancelled = Gate()
        let server = try startServer { _ in
            // (until cancelled, however late the cancellation comes)
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
            cancelled.open()
            return Response(status: 200)
        }
        let client = try RawClient(port: server.port)
        client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.statistics.requests == 1 })

        // When the grace period is short
        let report = await server.shutdown(gracePeriod: .milliseconds(100))

        // Then the handler is cancelled and the connection closed without a response
        #expect(report.abandoned == 1)
        #expect(await client.readToEnd().isEmpty)
        await cancelled.wait()
    }

    @Test func shuttingDownTwice_returnsTheSameReport() async throws {
        let server = try startServer { _ in Response(status: 200) }
        let first = await server.shutdown()
        let second = await server.shutdown()
        #expect(first == second)
        #expect(await server.waitUntilStopped() == first)
        // The listener is closed before shutdown returns (waited for all the same: in the rare
        // case that another test's listener takes the freed port at once, it stops soon).
        #expect(await eventually { PortReservation.nobodyListens(on: server.port) })
    }

    @Test func thePort_canBeBoundAgainAfterShutdown() async throws {
        // (Another test's port-0 listener may take the freed port first, rarely: then the whole
        // exchange is tried again on a new port; only a port that stays unbindable is a failure.)
        var lastError: HTTPServerError?
        for _ in 0..<5 {
            let first = try startServer { _ in Response(status: 200) }
            let port = first.port
            _ = await first.shutdown()
            let started = Result { () throws(HTTPServerError) -> HTTPServer in
                try HTTPServer.start(HTTPServer.Configuration(port: port)) { _ in Response(status: 204) }
            }
            guard case .success(let second) = started else {
                if case .failure(let error) = started, error.code == .addressInUse {
                    lastError = error
                    continue
                }
                _ = try started.get()
                return
            }
            let client = try RawClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 204)
            _ = await second.shutdown()
            return
        }
        Issue.record(
            "the freed port could not be bound again: \(lastError.map(String.init(describing:)) ?? "")")
    }

    @Test func aPortInUse_isAClearStartError() async throws {
        let first = try startServer { _ in Response(status: 200) }
        #expect {
            _ = try HTTPServer.start(HTTPServer.Configuration(port: first.port)) { _ in Response(status: 200)
            }
        } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.code == .addressInUse
                && error.message
                    == "cannot listen on 127.0.0.1:\(first.port): the address is already in use (is another server "
                    + "running?); stop it or choose another port (0 picks a free one)"
        }
        _ = await first.shutdown()
    }

    @Test func aHostThatIsNotAnAddress_isAClearStartError() {
        #expect {
            _ = try HTTPServer.start(HTTPServer.Configuration(host: "example.com", port: 0)) { _ in
                Response(status: 200)
            }
        } throws: { error in
            (error as? HTTPServerError)?.message
                == "host 'example.com' is not an IP address; use an address such as 127.0.0.1, ::1 or 0.0.0.0"
        }
    }

    @Test func theDefaultHost_isTheLoopback() throws {
        #expect(HTTPServer.Configuration().host == "127.0.0.1")
        #expect(HTTPServer.Configuration().port == 8080)
    }
}
