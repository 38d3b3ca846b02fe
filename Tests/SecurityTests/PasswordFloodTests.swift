@_spi(Testing) import Backend
import Foundation
import HTTPClient
import HTTPServer
import MediaModel
import ServerAPI
import Testing
import Wire

/// A flood of sign-ins: each password hash holds 32 MiB, so only two may run at once.
@Suite struct PasswordFloodTests {
    @Test func manySignInsAtOnce_neverHashMoreThanTwoPasswordsAtOnce() async throws {
        // Given one backend behind three HTTP servers (each runs two handlers at once: six threads
        // that could hash side by side)
        let target = try AttackTarget(.embedded)
        let backend = target.backend
        var servers: [HTTPServer] = []
        for _ in 0..<3 {
            servers.append(
                try HTTPServer.start(HTTPServer.Configuration(port: 0)) { await backend.handle($0) })
        }
        // and twelve accounts with passwords of their own
        let handles = (0..<12).map { "flood_\($0)" }
        for handle in handles {
            let created = try await target.createAccount(
                handle, password: "\(handle) secret", key: "k-\(handle)")
            try #require(created.status == 201)
        }
        // When twelve sign-ins with wrong passwords arrive at once, spread over the servers
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<12 {
                let server = servers[index % servers.count]
                group.addTask {
                    let transport = HTTPTransport(baseURL: server.baseURL, timeout: .seconds(300))
                    let handle = handles[index]
                    let body = #"{"handle": "\#(handle)", "password": "wrong password \#(index)"}"#
                    return try await transport.send(
                        Request(
                            .post, "/v1/sessions", headers: ["Content-Type": "application/json"],
                            body: Data(body.utf8))
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then every one was checked (and refused), never more than two hashes at once
        #expect(statuses == Array(repeating: 401, count: 12))
        #expect(BackendServer.mostConcurrentPasswordHashes <= 2)
        #expect(BackendServer.mostConcurrentPasswordHashes >= 1)
        for server in servers { _ = await server.shutdown(gracePeriod: .seconds(2)) }
        await target.stop()
    }
}
