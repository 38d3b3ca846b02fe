import Foundation
import HTTPServer
import ServerTesting
import SocketTesting
import Synchronization
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The raw test client owns exactly one descriptor. A refused connect once closed its socket
/// twice (in `init`, then again in `deinit`); the second close ended whatever another test had
/// opened under the same number meanwhile, and that test saw "the connection ended before a
/// response head (0 bytes)".
@Suite struct RawClientTests {
    @Test func refusedConnects_neverEndAnotherConnection() async throws {
        // Given a server, and a port that refuses connections (bound, not listening)
        let server = try startServer { _ in Response(status: 204) }
        defer { Task { _ = await server.shutdown() } }
        let refusing = PortReservation(port: 0)
        let refusedPort = try #require(refusing.port)

        // When one thread keeps failing to connect while exchanges run on fresh connections
        let stop = Atomic(false)
        let refusals = Atomic(0)
        let prober = Thread {
            while !stop.load(ordering: .relaxed) {
                if RawClient.isRefused(port: refusedPort) { refusals.add(1, ordering: .relaxed) }
            }
        }
        prober.start()
        // (at least 300 exchanges, and on until the prober has been refused 300 times, so a
        // prober that a loaded machine schedules late still overlaps them)
        var failures: [String] = []
        var exchanges = 0
        while exchanges < 300 || (refusals.load(ordering: .relaxed) < 300 && exchanges < 100_000) {
            exchanges += 1
            do {
                let client = try RawClient(port: server.port)
                client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                let status = try await client.readResponse().status
                if status != 204 { failures.append("status \(status)") }
            } catch {
                failures.append("\(error)")
            }
        }
        stop.store(true, ordering: .relaxed)

        // Then every exchange got its answer, and the prober really was refused all along
        #expect(
            failures.count == 0,
            "\(failures.count) of \(exchanges) exchanges failed; first: \(failures.first ?? "")")
        #expect(refusals.load(ordering: .relaxed) >= 300)
    }
}
