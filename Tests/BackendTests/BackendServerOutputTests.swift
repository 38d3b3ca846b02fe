import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `backend-server` keeps serving when nobody reads what it prints: `backend-server | head -1`
/// (the reader exits after one line) and Ctrl-C under `| tee` (tee dies with the same signal)
/// once killed it in Foundation's `FileHandle` ("Broken pipe", exit 132).
@Suite struct BackendServerOutputTests {
    static let request = "GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// Starts `backend-server --port 0` over a fresh directory and returns it with its port.
    static func start(_ extra: [String] = []) throws -> (PipedServerProcess, Int, String) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("backend-output-\(UUID().uuidString)").path
        let server = try PipedServerProcess(
            BackendServerCommandTests.executable, ["--port", "0", "--data-dir", directory] + extra)
        let line = try server.readLine(startingWith: "listening on ")
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "no port in '\(line)'")
        return (server, port, directory)
    }

    @Test func accessLogToAClosedPipe_losesTheLines_andTheServerKeepsServing() async throws {
        let (server, port, directory) = try Self.start()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        server.closeOutput()
        for attempt in 1...5 {
            let answer = PipedServerProcess.exchange(Self.request, port: port)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "request \(attempt) got '\(answer.prefix(80))'")
        }
        #expect(server.isRunning)
        server.kill(SIGINT)
        #expect(server.waitForExit() == 0)
    }

    @Test func ctrlCWithNobodyReading_stopsCleanly() async throws {
        let (server, port, directory) = try Self.start(["--quiet"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(PipedServerProcess.exchange(Self.request, port: port).hasPrefix("HTTP/1.1 200"))
        server.closeOutput()
        server.kill(SIGINT)
        #expect(server.waitForExit() == 0)
    }
}
