import CommandLineKit
import Foundation
import Glibc
import HTTPClient
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
/// `localhost` made into a temporary directory. Spawned with `posix_spawn` (never Foundation's
/// `Process`, which can crash a test process with many descriptors open), its standard output
/// going to a file in that directory and no descriptor of this process inherited.
final class TLSTestServer: Sendable {
    let port: Int
    let certificatePath: String
    private let pid: pid_t
    private let directory: String

    private init(port: Int, certificatePath: String, pid: pid_t, directory: String) {
        self.port = port
        self.certificatePath = certificatePath
        self.pid = pid
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
            "tls-test-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let made = try await onThread {
            try Subprocess.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                    "-keyout", key, "-out", certificate,
                ])
        }
        guard made.status == 0 else {
            Issue.record(
                "openssl req could not make a certificate (exit status \(made.status)): \(made.errorText)")
            try? FileManager.default.removeItem(atPath: directory)
            return nil
        }

        // `-accept 0` takes a free port and prints it: `ACCEPT [::]:PORT`.
        let log = directory + "/s_server.out"
        let pid = try spawn(
            openssl, ["s_server", "-www", "-accept", "0", "-cert", certificate, "-key", key], output: log)
        let server = TLSTestServer(port: 0, certificatePath: certificate, pid: pid, directory: directory)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return TLSTestServer(port: port, certificatePath: certificate, pid: pid, directory: directory)
            }
            // (an external process's output, which nothing can signal: looked at again shortly)
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("openssl s_server did not say which port it listens on within 60 s")
        server.stop()
        return nil
    }

    /// Stops the server (SIGKILL: a child spawned from a thread of the test runner may inherit
    /// a signal mask that blocks SIGTERM), reaps it and removes its directory.
    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Spawns `executable` with standard output to the file `output`, standard input and error
    /// to /dev/null, and no other descriptor of this process.
    private static func spawn(_ executable: String, _ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = Subprocess.addCloseFrom?(&actions, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard result == 0 else {
            throw StubError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Runs `body` on a thread of its own (it blocks), off the cooperative pool.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
