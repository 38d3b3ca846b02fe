import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `tools/deploy-local` running as a person runs it: a throwaway PostgreSQL cluster, N
/// `backend-server` processes and HAProxy in front, with what it printed on the way up.
///
/// `stop()` sends ctrl-c (SIGINT) and returns the script's exit status; should a test end without
/// it, `deinit` sends ctrl-c too.
public final class LocalDeployment: Sendable {
    /// The script, found from this file's place in the repository.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/deploy-local").path

    /// The script's process.
    public let process: PipedServerProcess
    /// The database every server uses (`postgres://loom@127.0.0.1:PORT/loom`).
    public let databaseURL: String
    /// Each server's process id, in the order started.
    public let servers: [pid_t]
    /// Each server's own port, in the same order (to reach one server, not HAProxy).
    public let serverPorts: [Int]
    /// HAProxy's port: the one URL the apps are given.
    public let port: Int

    /// Starts `servers` servers (with `--demo`: the seed accounts and the demo password) and
    /// waits, off the pool, until HAProxy serves.
    public init(servers count: Int, demo: Bool = true) async throws {
        var arguments = [
            "--servers", String(count), "--port", "0", "--backend-server",
            PipedServerProcess.backendServerPath,
        ]
        if demo { arguments.append("--demo") }
        let (process, line) = try await PipedServerProcess.start(
            Self.script, arguments, waitingFor: "deploy-local: PostgreSQL at ")
        self.process = process
        databaseURL = String(line.dropFirst("deploy-local: PostgreSQL at ".count))
        (servers, serverPorts, port) = try await offThePool {
            var servers: [pid_t] = []
            var ports: [Int] = []
            for index in 1...count {
                // deploy-local: server 1: pid 5101 at http://127.0.0.1:39001
                let line = try process.readLine(startingWith: "deploy-local: server \(index): pid ")
                guard let pid = pid_t(line.split(separator: " ")[4]),
                    let port = Int(line.split(separator: ":").last ?? "")
                else {
                    throw PipedServerProcess.Failure(description: "no pid or port in '\(line)'")
                }
                servers.append(pid)
                ports.append(port)
            }
            let serving = try process.readLine(startingWith: "serving http://127.0.0.1:")
            guard let port = Int(serving.split(separator: ":").last ?? "") else {
                throw PipedServerProcess.Failure(description: "no port in '\(serving)'")
            }
            return (servers, ports, port)
        }
    }

    /// A test that ended early (a failed `#require`) still stops everything: ctrl-c, which the
    /// script's trap turns into stopping HAProxy, the servers and the cluster. SIGKILL alone would
    /// leave them running, orphaned; it comes only if the script has not ended 15 s later.
    deinit {
        guard process.isRunning else { return }
        process.kill(SIGINT)
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.kill(SIGKILL) }
    }

    /// HAProxy's base URL.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Stops everything as ctrl-c does and returns the script's exit status (0 when it stopped
    /// HAProxy, the servers and PostgreSQL and deleted its directory).
    public func stop() async -> Int32 {
        process.kill(SIGINT)
        return await process.exitStatus()
    }
}
