@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import MediaModel
import Mutations
import Networking
import ServerAPI
import SocketTesting
import Storage
import Synchronization
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The mutation manager over HTTP while the server goes away and comes back: changes made while
/// it is down wait in the journal, backing off, and are applied once when a new server process
/// (a new backend over the same files) listens again.
@Suite struct MutationsAcrossARestartTests {
    @Test func changesMadeWhileTheServerIsDown_areAppliedOnceWhenItIsBack() async throws {
        // Given an app sending to a backend-server, with one change already applied
        let first = try BackendServer.seededCopy(clock: SystemClock())
        let directory = (first.databasePath as NSString).deletingLastPathComponent
        var server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { await first.handle($0) }
        let port = server.port
        let token = first.testToken(forHandle: BackendSeed.firstHandle)
        let client = Mutex(Self.client(for: server, token: token))
        var configuration = MutationManager.Configuration()
        configuration.defaultRetryPolicy = RetryPolicy(base: .milliseconds(20), cap: .milliseconds(200))
        let manager = try MutationManager(
            database: try AppDatabase.open(
                directory: try BackendServer.makeTemporaryDirectory("restart-app")),
            client: { client.withLock { $0 } }, configuration: configuration)
        manager.start()
        let before = try await manager.enqueue(.like("m2"))
        try await Self.waitUntil("the first like is applied") { manager.pending.isEmpty }

        // When the server stops, changes are made, and it starts again over the same files
        _ = await server.shutdown(gracePeriod: .seconds(2))
        first.close()
        // While down, the port stays bound (not listening), so connections are refused and no
        // other test's server can take it and receive these changes. Should another test's
        // listener have taken it already, the client is sent to another port held refused.
        var reservation = PortReservation(port: port)
        if reservation.port == nil {
            reservation = PortReservation(port: 0)
            let refused = try Self.client(port: try #require(reservation.port), token: token)
            client.withLock { $0 = refused }
        }
        let whileDown = try await manager.enqueue([
            .post(text: "written while the server was down", attachments: []), .like("m3"),
        ])
        try await Self.waitUntil("an attempt fails while the server is down") {
            manager.pending.contains { $0.attempts > 0 && $0.lastError != nil }
        }
        #expect(manager.pending.map(\.token) == whileDown)
        let second = try BackendServer(directory: directory)
        let heldOurPort = reservation.port == port
        reservation.release()
        if heldOurPort, let again = try Self.serve(second, port: port) {
            server = again
        } else {
            // Another test took the freed port in the meantime: come back on a new one.
            server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { await second.handle($0) }
            let moved = Self.client(for: server, token: token)
            client.withLock { $0 = moved }
        }
        manager.networkDidChange()
        try await Self.waitUntil("the changes made while down are applied") { manager.pending.isEmpty }

        // Then each was applied once and nothing failed
        #expect(manager.failed.isEmpty)
        await manager.stop()
        _ = await server.shutdown(gracePeriod: .seconds(2))
        second.close()
        let database = try Database(path: second.databasePath)
        for token in [before] + whileDown {
            let status = try database.query(
                "SELECT status FROM mutations WHERE user = 1 AND token = ?", token.rawValue
            ).first?.int(0)
            #expect(status.map { (200..<300).contains($0) } == true, "\(token) was not applied")
        }
        let posts = try database.query(
            "SELECT COUNT(*) FROM posts WHERE client_token = ?", whileDown[0].rawValue
        ).first?.int(0)
        #expect(posts == 1)
        let likes = try database.query(
            "SELECT post FROM likes WHERE user = 1 AND post IN (2, 3) ORDER BY post"
        ).map { try $0.int(0) }
        #expect(likes == [2, 3])
    }

    /// A server for `backend` on `port`, or nil when the port is taken.
    static func serve(_ backend: BackendServer, port: Int) throws -> HTTPServer? {
        do {
            return try HTTPServer.start(HTTPServer.Configuration(port: port)) { await backend.handle($0) }
        } catch {
            guard error.code == .addressInUse else { throw error }
            return nil
        }
    }

    static func client(for server: HTTPServer, token: String) -> APIClient {
        APIClient(transport: HTTPTransport(baseURL: server.baseURL, timeout: .seconds(5)), bearerToken: token)
    }

    /// A client for 127.0.0.1:`port`.
    static func client(port: Int, token: String) throws -> APIClient {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        return APIClient(transport: HTTPTransport(baseURL: url, timeout: .seconds(5)), bearerToken: token)
    }

    /// Polls `condition` every 10 ms for up to 300 s: a loaded `swift test` runs every test's tasks
    /// on the same two threads, so an event can come late; only one that never comes fails.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(300)
        while !condition() {
            guard Date() < deadline else { throw WaitError(description: "timed out waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct WaitError: Error, CustomStringConvertible {
        let description: String
    }
}
