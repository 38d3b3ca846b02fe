import Foundation
import Glibc
import ServerAPI
import Testing
import Wire

/// `HTTPTransport` over TLS against the `openssl s_server` of the machine, with a self-signed
/// certificate for `localhost` made for the test.
@Suite struct HTTPSTransportTests {
    @Test func aCertificateTheTrustStoreDoesNotKnow_isRefusedAndTheTrustedOneAnswers() async throws {
        guard let server = try await TLSTestServer.start() else { return }
        defer { server.stop() }
        let url = try #require(URL(string: "https://localhost:\(server.port)"))

        // A server whose certificate the system's trust store does not know is not reached
        let untrusting = HTTPTransport(baseURL: url, timeout: .seconds(60))
        let refused = await HTTPTransportTests.failure { _ = try await untrusting.send(Request(.get, "/")) }
        #expect(refused?.errorClass == .offline)
        #expect(
            refused?.detail
                == "cannot reach \(url.absoluteString) securely: the TLS handshake with localhost failed: its "
                + "certificate was refused: self-signed certificate; nothing was sent")

        // while a transport trusting that certificate gets the server's page
        let trusting = HTTPTransport(
            baseURL: url, timeout: .seconds(60), maximumConnections: 6,
            trustedCertificates: server.certificatePath)
        let response = try await trusting.send(Request(.get, "/"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("s_server -www"))

        // and the certificate must name the host asked for: it names localhost, not 127.0.0.1
        let byAddress = try #require(URL(string: "https://127.0.0.1:\(server.port)"))
        let mismatched = HTTPTransport(
            baseURL: byAddress, timeout: .seconds(60), maximumConnections: 6,
            trustedCertificates: server.certificatePath)
        let wrongName = await HTTPTransportTests.failure { _ = try await mismatched.send(Request(.get, "/")) }
        #expect(wrongName?.errorClass == .offline)
        #expect(
            wrongName?.detail
                == "cannot reach \(byAddress.absoluteString) securely: the TLS handshake with 127.0.0.1 failed: "
                + "its certificate was refused: IP address mismatch; nothing was sent")
    }
}

/// `openssl s_server -www` on a port of its choosing, with a self-signed certificate for
/// `localhost` made into a temporary directory.
final class TLSTestServer: Sendable {
    let port: Int
    let certificatePath: String
    private let process: Process
    private let directory: URL

    private init(port: Int, certificatePath: String, process: Process, directory: URL) {
        self.port = port
        self.certificatePath = certificatePath
        self.process = process
        self.directory = directory
    }

    /// Starts the server; records an issue and returns nil when the openssl command is missing
    /// or fails.
    static func start() async throws -> TLSTestServer? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard
            let openssl = path.split(separator: ":").map({ "\($0)/openssl" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            Issue.record("the openssl command is not on PATH (\(path)); install it (apt-get install openssl)")
            return nil
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tls-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try await run(
            openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                "-keyout", key, "-out", certificate,
            ])
        guard made == 0 else {
            Issue.record("openssl req could not make a certificate (exit status \(made))")
            try? FileManager.default.removeItem(at: directory)
            return nil
        }

        // `-accept 0` takes a free port and prints it: `ACCEPT [::]:PORT`.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["s_server", "-www", "-accept", "0", "-cert", certificate, "-key", key]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let port = await acceptedPort(output.fileHandleForReading)
        guard let port else {
            Issue.record("openssl s_server did not say which port it listens on")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
            return nil
        }
        return TLSTestServer(port: port, certificatePath: certificate, process: process, directory: directory)
    }

    /// Stops the server and removes its directory. (SIGKILL: a process spawned from a thread of
    /// the test runner may inherit a signal mask that blocks SIGTERM.)
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The port of the server's `ACCEPT` line, read on a thread of its own (nil at end of output).
    private static func acceptedPort(_ handle: FileHandle) async -> Int? {
        await withCheckedContinuation { continuation in
            Thread {
                var text = ""
                while true {
                    let data = handle.availableData
                    guard !data.isEmpty else { return continuation.resume(returning: nil) }
                    text += String(decoding: data, as: UTF8.self)
                    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                        let port = line.split(separator: ":").last.flatMap({ Int($0) })
                    {
                        return continuation.resume(returning: port)
                    }
                }
            }.start()
        }
    }

    /// Runs a command to its end (waiting on a thread of its own); its exit status.
    private static func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
    }
}
