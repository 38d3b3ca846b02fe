@_spi(Testing) import Backend
import CommandLineKit
import Foundation
import MediaModel
import ServerTesting
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// `backend-server --demo` and `--token-lifetime`, run as the built executable.
@Suite struct BackendServerDemoModeTests {
    /// Starts `backend-server` over a seeded copy with `extra` arguments; returns it and its port.
    static func start(_ extra: [String]) async throws -> (PipedServerProcess, Int) {
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        let directory = (backend.databasePath as NSString).deletingLastPathComponent
        backend.close()
        let (server, line) = try await PipedServerProcess.start(
            BackendServerCommandTests.executable,
            ["--port", "0", "--data-dir", directory, "--quiet"] + extra,
            waitingFor: "listening on ")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "no port in '\(line)'")
        return (server, port)
    }

    static func signIn(_ handle: String, port: Int) async -> String {
        let body = #"{"handle": "\#(handle)", "password": "\#(DemoAccounts.password)"}"#
        return await PipedServerProcess.exchanging(
            "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
    }

    @Test func withoutDemo_theSeedAccountsAreRefused() async throws {
        let (server, port) = try await Self.start([])
        let answer = await Self.signIn("ada", port: port)
        #expect(answer.hasPrefix("HTTP/1.1 403 "), "\(answer.prefix(200))")
        #expect(answer.contains(#""code":"demo_disabled""#))
        server.kill(SIGTERM)
        #expect(await server.exitStatus() == 0)
    }

    @Test func withDemo_theSeedAccountsSignIn_withTokensThatLastTokenLifetime() async throws {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let (server, port) = try await Self.start(["--demo", "--token-lifetime", "90"])
        let answer = await Self.signIn("ada", port: port)
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer.prefix(200))")
        let json = try JSONValue(
            parsing: Data(
                answer.split(separator: "\r\n\r\n", maxSplits: 1).last.map(String.init)?.utf8 ?? "".utf8))
        let expiresAt = try #require(json["session", "expiresAt"].int)
        #expect((before + 90_000...after + 90_000).contains(Int64(expiresAt)))
        server.kill(SIGTERM)
        #expect(await server.exitStatus() == 0)
    }

    @Test func aTokenLifetimeOfZero_isAUsageError() throws {
        let result = try Subprocess.run(BackendServerCommandTests.executable, ["--token-lifetime", "0"])
        #expect(result.status == 2)
        #expect(result.errorText.contains("--token-lifetime"))
    }
}
