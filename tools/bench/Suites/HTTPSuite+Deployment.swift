import Foundation
import PostgresStorage

#if canImport(Glibc)
    import Glibc
#endif

// `bench http --database postgres`: the backend as it is deployed beyond one process, measured
// beside SQLite in the same run. For each engine, one and then two `backend-server` processes
// (the release binary beside the bench) serve one database behind HAProxy, and the suite's load
// client sends `GET /v1/feed` to HAProxy on 64 keep-alive connections. Every process's CPU time
// is read from /proc around each round, so a page's cost is split between the servers, the
// database, HAProxy and the client, and the database's share is measured, not guessed.
extension HTTPSuite {
    /// The engines `--database` names.
    enum Engine: String, CaseIterable {
        case sqlite
        case postgres
    }

    /// Runs the deployment rounds for `engines` and reports them; `page` is the page the suite's
    /// own server served (every deployment must serve the same page, its dates aside).
    static func measureDeployments(engines: [Engine], page: [UInt8], runner: BenchRunner) async throws {
        let binaries = try BinaryDirectory.ofThisProcess()
        let server = try binaries.executable("backend-server")
        let haproxy = try DebianPackage.binary(
            "haproxy", package: "haproxy", candidates: ["/usr/sbin/haproxy"], log: runner.log)
        let rounds = runner.quick ? 1 : 2
        let round: Duration = runner.quick ? .milliseconds(700) : .seconds(2)
        var measured: [Engine: [Int: DeploymentFigures]] = [:]
        for engine in engines {
            for servers in [1, 2] {
                let deployment = try Deployment(
                    engine: engine, servers: servers, backendServer: server, haproxy: haproxy, log: runner.log
                )
                defer { deployment.stop() }
                let token = try deployment.signIn()
                let served = try LoadClient.fetch(
                    port: deployment.port, request: LoadProcess.request(port: deployment.port, token: token))
                // The same seed, seeded at another moment: the same page but for its dates.
                guard served.head.hasPrefix("HTTP/1.1 200"), abs(served.body.count - page.count) <= 256 else {
                    throw BenchSetupError(
                        "\(engine.rawValue) with \(servers) server(s) served \(served.body.count) bytes, where the "
                            + "suite's own server served \(page.count): \(served.head.prefix(40))")
                }
                let load = try LoadProcess(port: deployment.port, token: token)
                _ = try await load.run(connections: 64, for: .milliseconds(500))
                var figures = DeploymentFigures()
                for _ in 0..<rounds {
                    let before = deployment.cpu()
                    let clientBefore = childrenCPUSeconds()
                    let result = try await load.run(connections: 64, for: round)
                    figures.add(
                        result, cpu: deployment.cpu() - before, client: childrenCPUSeconds() - clientBefore)
                }
                measured[engine, default: [:]][servers] = figures
                report(
                    figures, engine: engine, servers: servers, rounds: rounds, round: round, runner: runner)
            }
        }
        reportScaling(measured, runner: runner)
    }

    /// The rows of one deployment.
    private static func report(
        _ figures: DeploymentFigures, engine: Engine, servers: Int, rounds: Int, round: Duration,
        runner: BenchRunner
    ) {
        let result = figures.result
        let perPage = figures.perPage
        if result.failures > 0 {
            runner.log("warning: \(result.failures) requests through HAProxy failed (not 200)")
        }
        let database =
            engine == .postgres
            ? "PostgreSQL \(BenchFormat.number(perPage.database)) us (\(BenchFormat.number(perPage.databaseShare * 100))% "
                + "of the servers' and database's)"
            : "the database inside the servers' processes"
        runner.report(
            "\(engine.rawValue), \(servers) server\(servers == 1 ? "" : "s") behind HAProxy: GET /v1/feed",
            value: result.requestsPerSecond, p99: result.percentile(0.99) * 1000, unit: .perSecond,
            note:
                "median of \(rounds) rounds of \(round), 64 connections; p99 "
                + "\(BenchFormat.number(result.percentile(0.99) * 1000)) ms; CPU per page: servers "
                + "\(BenchFormat.number(perPage.servers)) us, \(database), HAProxy "
                + "\(BenchFormat.number(perPage.haproxy)) us, load client \(BenchFormat.number(perPage.client)) us; "
                + "busy \(BenchFormat.number(figures.coresBusy)) of \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
    }

    /// Two servers against one, PostgreSQL against SQLite, and what the CPU per page predicts
    /// for a 16-core machine.
    private static func reportScaling(_ measured: [Engine: [Int: DeploymentFigures]], runner: BenchRunner) {
        for (engine, byServers) in measured.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let one = byServers[1], let two = byServers[2] else { continue }
            runner.report(
                "  \(engine.rawValue): 2 servers / 1",
                value: two.result.requestsPerSecond / one.result.requestsPerSecond,
                unit: .ratio,
                note:
                    "\(BenchFormat.number(two.result.requestsPerSecond)) vs "
                    + "\(BenchFormat.number(one.result.requestsPerSecond)) pages/s; both already use "
                    + "\(BenchFormat.number(one.coresBusy)) and \(BenchFormat.number(two.coresBusy)) of the cores"
            )
        }
        if let postgres = measured[.postgres]?[1], let sqlite = measured[.sqlite]?[1] {
            runner.report(
                "  postgres / sqlite, 1 server",
                value: postgres.result.requestsPerSecond / sqlite.result.requestsPerSecond,
                unit: .ratio,
                note:
                    "CPU per page, servers plus database: \(BenchFormat.number(postgres.perPage.servers + postgres.perPage.database)) "
                    + "vs \(BenchFormat.number(sqlite.perPage.servers)) us")
        }
        for (engine, byServers) in measured.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let two = byServers[2] else { continue }
            let perPage = two.perPage
            let serving = perPage.servers + perPage.database + perPage.haproxy
            runner.report(
                "  \(engine.rawValue): pages/s predicted for 16 cores", value: 16e6 / serving,
                unit: .perSecond,
                note:
                    "16 cores over the measured CPU per page with 2 servers ("
                    + (engine == .postgres
                        ? "servers \(BenchFormat.number(perPage.servers)) + PostgreSQL "
                            + "\(BenchFormat.number(perPage.database))"
                        : "servers with SQLite inside \(BenchFormat.number(perPage.servers))")
                    + " + HAProxy \(BenchFormat.number(perPage.haproxy)) us), the clients on other machines; reads "
                    + "only: writes take one lock for the whole database and do not scale with cores")
        }
    }

    /// What the rounds of one deployment measured.
    struct DeploymentFigures {
        private var rounds: [LoadResult] = []
        private var cpu = DeploymentCPU()
        private var client = 0.0
        private var seconds = 0.0

        mutating func add(_ result: LoadResult, cpu: DeploymentCPU, client: Double) {
            rounds.append(result)
            self.cpu = self.cpu + cpu
            self.client += client
            seconds += result.elapsed
        }

        /// The median round, with every round's latencies.
        var result: LoadResult { LoadResult.combined(rounds) }

        /// Microseconds of CPU per page served.
        var perPage:
            (servers: Double, database: Double, haproxy: Double, client: Double, databaseShare: Double)
        {
            let pages = Double(max(1, rounds.reduce(0) { $0 + $1.requests }))
            return (
                cpu.servers / pages * 1e6, cpu.database / pages * 1e6, cpu.haproxy / pages * 1e6,
                client / pages * 1e6,
                cpu.database / max(cpu.servers + cpu.database, 1e-9)
            )
        }

        /// How many cores the servers, the database, HAProxy and the client kept busy on average.
        var coresBusy: Double { (cpu.servers + cpu.database + cpu.haproxy + client) / max(seconds, 1e-9) }
    }

    /// CPU seconds of a deployment's processes.
    struct DeploymentCPU {
        var servers = 0.0
        var database = 0.0
        var haproxy = 0.0

        static func + (left: DeploymentCPU, right: DeploymentCPU) -> DeploymentCPU {
            DeploymentCPU(
                servers: left.servers + right.servers, database: left.database + right.database,
                haproxy: left.haproxy + right.haproxy)
        }

        static func - (left: DeploymentCPU, right: DeploymentCPU) -> DeploymentCPU {
            DeploymentCPU(
                servers: left.servers - right.servers, database: left.database - right.database,
                haproxy: left.haproxy - right.haproxy)
        }
    }

    /// User plus system CPU seconds of this process's children that have ended (the load
    /// client's rounds; the servers and HAProxy are reaped only when stopped).
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// One database (a temporary SQLite directory or a throwaway PostgreSQL cluster), N
    /// `backend-server` processes in demo mode started one after another (the first seeds
    /// it), and HAProxy balancing round robin in front, on free ports of 127.0.0.1.
    final class Deployment {
        let port: Int
        private let directory: String
        private let cluster: PostgresCluster?
        private var servers: [pid_t] = []
        private var haproxy: pid_t?
        private var stopped = false

        init(
            engine: Engine, servers count: Int, backendServer: String, haproxy binary: String,
            log: (String) -> Void
        )
            throws
        {
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent(
                    "bench-deploy-\(ProcessInfo.processInfo.processIdentifier)-\(engine)-\(count)"
                )
                .path
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var database: [String]
            switch engine {
            case .sqlite:
                cluster = nil
                database = ["--data-dir", directory + "/data"]
            case .postgres:
                let cluster = try PostgresCluster.start(durable: true)
                self.cluster = cluster
                database = ["--database", try cluster.createDatabase("loom")]
            }
            port = try LocalPort.free()
            do {
                var ports: [Int] = []
                for index in 1...count {
                    let output = directory + "/server-\(index).log"
                    let pid = try Spawn.start(
                        backendServer, ["--port", "0", "--demo", "--quiet"] + database, output: output)
                    servers.append(pid)
                    ports.append(try Self.listeningPort(pid, log: output))
                }
                let configuration = Self.configuration(port: port, servers: ports)
                try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/haproxy.cfg"))
                haproxy = try Spawn.start(
                    binary, ["-db", "-f", directory + "/haproxy.cfg"], output: directory + "/haproxy.log")
                for _ in 0..<500 where !LocalPort.accepts(port) { usleep(10_000) }
                guard LocalPort.accepts(port) else {
                    throw SpawnFailure(
                        "HAProxy did not listen on \(port): \(Self.tail(directory + "/haproxy.log"))")
                }
                log(
                    "\(engine.rawValue): \(count) backend-server process(es) on ports \(ports) behind HAProxy on "
                        + "port \(port)")
            } catch {
                stop()
                throw error
            }
        }

        deinit { stop() }

        /// HAProxy's configuration: round robin, connections to the servers kept and reused.
        private static func configuration(port: Int, servers: [Int]) -> String {
            let lines = servers.enumerated().map { "    server s\($0.offset + 1) 127.0.0.1:\($0.element)" }
            return """
                global
                    maxconn 4096

                defaults
                    mode http
                    timeout connect 2s
                    timeout client 60s
                    timeout server 60s

                frontend bench
                    bind 127.0.0.1:\(port)
                    default_backend servers

                backend servers
                    balance roundrobin
                    http-reuse always
                \(lines.joined(separator: "\n"))

                """
        }

        /// The port a server printed (`listening on http://127.0.0.1:PORT`) within 60 s.
        private static func listeningPort(_ pid: pid_t, log: String) throws -> Int {
            for _ in 0..<6000 {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: {
                    $0.hasPrefix("listening on http://")
                }),
                    let port = Int(line.split(separator: ":").last ?? "")
                {
                    return port
                }
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    throw SpawnFailure("backend-server exited (status \(status)): \(tail(log))")
                }
                usleep(10_000)
            }
            throw SpawnFailure("backend-server did not listen within 60 s: \(tail(log))")
        }

        private static func tail(_ path: String) -> String {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").suffix(3).joined(separator: " / ")
        }

        /// A token for the first seed account, signed in through HAProxy with the demo password.
        func signIn() throws -> String {
            let body = #"{"handle":"ada","password":"loom-demo"}"#
            let request =
                "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let response = try LoadClient.fetch(port: port, request: Array(request.utf8))
            let text = String(decoding: response.body, as: UTF8.self)
            guard let token = text.firstMatch(of: /"token":"(tok_[0-9a-f]+)"/)?.1 else {
                throw SpawnFailure(
                    "signing in through HAProxy failed: \(response.head.prefix(40)) \(text.prefix(200))")
            }
            return String(token)
        }

        /// CPU seconds so far of the servers, the database's processes (PostgreSQL's postmaster
        /// and its backends; none for SQLite, which runs inside the servers) and HAProxy.
        func cpu() -> DeploymentCPU {
            var database: [pid_t] = []
            if let cluster,
                let text = try? String(
                    contentsOfFile: cluster.directory + "/data/postmaster.pid", encoding: .utf8),
                let postmaster = text.split(separator: "\n").first.flatMap({ pid_t($0) })
            {
                database = [postmaster] + ProcStat.children(of: postmaster)
            }
            return DeploymentCPU(
                servers: ProcStat.cpuSeconds(servers), database: ProcStat.cpuSeconds(database),
                haproxy: ProcStat.cpuSeconds(haproxy.map { [$0] } ?? []))
        }

        /// Stops HAProxy and the servers (TERM, then KILL after 5 s), the cluster, and deletes
        /// the directory.
        func stop() {
            guard !stopped else { return }
            stopped = true
            for pid in (haproxy.map { [$0] } ?? []) + servers.reversed() {
                kill(pid, SIGTERM)
                var status: Int32 = 0
                var waited = 0
                while waitpid(pid, &status, WNOHANG) == 0 {
                    if waited >= 500 {
                        kill(pid, SIGKILL)
                        _ = waitpid(pid, &status, 0)
                        break
                    }
                    usleep(10_000)
                    waited += 1
                }
            }
            cluster?.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
