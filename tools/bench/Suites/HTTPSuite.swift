@_spi(Testing) import Backend
import CommandLineKit
import Foundation
import HTTPServer
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// `http`: the backend served over HTTP/1.1 by `HTTPServer`, loaded with `GET /v1/feed` (20
/// entries, about 55 KB) on 64 keep-alive connections from a raw-socket client in a process of
/// its own (this binary re-spawned, `LoadProcess`), beside two baselines in the same run:
///
/// - nginx (Debian's package, installed when missing) serving the exact bytes backend-server
///   served as a static file, loaded by the same client (the least serving those bytes over
///   HTTP can cost: what the HTTP layer is measured against);
/// - the same handler called in process by 64 concurrent tasks (what the handler itself costs).
///
/// The client shares the machine's cores with the server, as any client on the same machine
/// would. Each side runs a warm-up and then three timed rounds of 2 s, interleaved (in process,
/// over HTTP, nginx; the last two swap places every other round); the figures are the median
/// round's requests per second, the p99 latency over all rounds' requests, and the server's CPU
/// time per request over all rounds: this process's own (`getrusage`) for backend-server and the
/// handler, which run alone in it during their rounds, and nginx's master and workers'
/// (/proc/PID/stat) for nginx. When `wrk` is installed it is run once more against the server,
/// for the record (never required).
///
/// The load asks for one viewer's unchanged page, which after the first request is answered from
/// the backend's page cache (kept until the next write); a row measures the same load with the
/// cache off.
///
/// With `--database postgres` (or `sqlite`) the suite then measures the backend as deployed:
/// `backend-server` processes behind HAProxy on one database (`HTTPSuite+Deployment.swift`).
enum HTTPSuite {
    static let suite = BenchSuite(
        name: "http",
        summary:
            "GET /v1/feed over HTTP/1.1 with 64 keep-alive connections vs nginx and the handler in process"
    ) { runner in
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-http-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let backend = try BackendServer(
            directory: directory, seed: BackendSeed.defaultSeed, clock: SystemClock())
        defer { backend.close() }
        let server = try HTTPServer.start(HTTPServer.Configuration(port: 0)) { request in
            await backend.handle(request)
        }
        let token = backend.testToken(forHandle: BackendSeed.firstHandle)
        let request = Request(.get, "/v1/feed", headers: ["Authorization": "Bearer \(token)"])
        let served = try LoadClient.fetch(
            port: server.port, request: LoadProcess.request(port: server.port, token: token))
        runner.log(
            "one response: \(served.head.prefix(12)), \(served.body.count) bytes of JSON after a \(served.head.utf8.count)-byte "
                + "head; server on port \(server.port)")

        let nginx = startNginx(page: served.body, runner: runner)
        defer { nginx?.stop() }

        let connections = 64
        let rounds = runner.quick ? 1 : 3
        let round: Duration = runner.quick ? .milliseconds(700) : .seconds(2)
        let load = try LoadProcess(port: server.port, token: token)
        let nginxLoad = try nginx.map { try LoadProcess(port: $0.port, token: token) }
        _ = try await load.run(connections: connections, for: .milliseconds(500))
        if let nginxLoad { _ = try await nginxLoad.run(connections: connections, for: .milliseconds(500)) }
        _ = await InProcessLoad.run(connections: connections, for: .milliseconds(300)) {
            await backend.handle(request)
        }
        var overHTTP: [LoadResult] = []
        var inProcess: [LoadResult] = []
        var overNginx: [LoadResult] = []
        var cpu = (http: 0.0, handler: 0.0, nginx: 0.0)
        for index in 0..<rounds {
            var before = processCPUSeconds()
            inProcess.append(
                await InProcessLoad.run(connections: connections, for: round) {
                    await backend.handle(request)
                })
            cpu.handler += processCPUSeconds() - before
            func backendRound() async throws {
                before = processCPUSeconds()
                overHTTP.append(try await load.run(connections: connections, for: round))
                cpu.http += processCPUSeconds() - before
            }
            if index.isMultiple(of: 2) { try await backendRound() }
            if let nginx, let nginxLoad {
                let nginxBefore = nginx.cpuSeconds()
                overNginx.append(try await nginxLoad.run(connections: connections, for: round))
                cpu.nginx += nginx.cpuSeconds() - nginxBefore
            }
            if !index.isMultiple(of: 2) { try await backendRound() }
        }
        let http = LoadResult.combined(overHTTP)
        let local = LoadResult.combined(inProcess)
        let anchor = nginx == nil ? nil : LoadResult.combined(overNginx)
        if http.failures > 0 { runner.log("warning: \(http.failures) requests over HTTP failed (not 200)") }
        if let anchor, anchor.failures > 0 {
            runner.log("warning: \(anchor.failures) requests to nginx failed (not 200)")
        }

        runner.report(
            "GET /v1/feed over HTTP, 64 connections", value: http.requestsPerSecond, unit: .perSecond,
            baseline: ("handler in process, 64 tasks", local.requestsPerSecond), targets: [.atLeast(10_000)],
            note:
                "median of \(rounds) rounds of \(round); \(http.latencies.count) requests in all; the client is "
                + "a process of its own on the same 2 cores")
        runner.report(
            "  p99 latency over HTTP", value: http.percentile(0.99) * 1000, p90: http.percentile(0.90) * 1000,
            p99: http.percentile(0.99) * 1000, unit: .milliseconds,
            baseline: ("in process", local.percentile(0.99) * 1000), targets: [.atMost(20)],
            note: "p50 \(BenchFormat.number(http.percentile(0.5) * 1000)) ms over HTTP, "
                + "\(BenchFormat.number(local.percentile(0.5) * 1000)) ms in process; over HTTP a request waits its "
                + "turn behind the other 63, in process a call is timed from when it runs")

        let httpCPU = cpu.http / Double(max(1, overHTTP.reduce(0) { $0 + $1.requests })) * 1e6
        let handlerCPU = cpu.handler / Double(max(1, inProcess.reduce(0) { $0 + $1.requests })) * 1e6
        if let nginx, let anchor {
            let nginxCPU = cpu.nginx / Double(max(1, overNginx.reduce(0) { $0 + $1.requests })) * 1e6
            let same = "the same \(served.body.count) bytes as a static file"
            runner.report(
                "nginx: \(same), 64 connections", value: anchor.requestsPerSecond,
                p99: anchor.percentile(0.99) * 1000,
                unit: .perSecond,
                note:
                    "worker_processes \(nginx.workers) (one per core: backend-server's loop and handler threads "
                    + "use both cores too); sendfile on, access log off; p99 "
                    + "\(BenchFormat.number(anchor.percentile(0.99) * 1000)) ms")
            runner.report(
                "  pages/s, backend-server / nginx", value: http.requestsPerSecond / anchor.requestsPerSecond,
                unit: .ratio, targets: [.atLeast(0.5)],
                note:
                    "\(BenchFormat.number(http.requestsPerSecond)) vs \(BenchFormat.number(anchor.requestsPerSecond)) "
                    + "pages/s, median rounds")
            runner.report(
                "  p99 latency, backend-server / nginx",
                value: http.percentile(0.99) / anchor.percentile(0.99),
                unit: .ratio, targets: [.atMost(2)],
                note: "\(BenchFormat.number(http.percentile(0.99) * 1000)) vs "
                    + "\(BenchFormat.number(anchor.percentile(0.99) * 1000)) ms")
            runner.report(
                "  server CPU per request over HTTP", value: httpCPU, unit: .microseconds,
                baseline: ("nginx", nginxCPU),
                note:
                    "backend-server: this process's CPU time in its rounds over its requests; nginx: master + "
                    + "workers' utime + stime (/proc/PID/stat, 10 ms ticks) over its requests; ratio "
                    + "\(BenchFormat.number(httpCPU / nginxCPU))x")
            runner.report(
                "  HTTP layer's own CPU per request (over HTTP minus in process)",
                value: httpCPU - handlerCPU,
                unit: .microseconds, baseline: ("nginx's CPU per request", nginxCPU),
                targets: [.withinBaseline(factor: 2)],
                note:
                    "handler in process: \(BenchFormat.number(handlerCPU)) us of CPU per request (64 tasks); "
                    + "target: at most 2x nginx's CPU per request for the same bytes")
        } else {
            runner.report(
                "  server CPU per request over HTTP", value: httpCPU, unit: .microseconds,
                note: "this process's CPU time in its rounds over its requests (nginx skipped, see above)")
            runner.report(
                "  HTTP layer's own CPU per request (over HTTP minus in process)",
                value: httpCPU - handlerCPU,
                unit: .microseconds,
                note: "handler in process: \(BenchFormat.number(handlerCPU)) us of CPU per request (64 tasks)"
            )
        }

        // One request at a time: the transport's fixed cost per request, without queueing.
        let single = try await load.run(connections: 1, for: .milliseconds(600))
        let singleLocal = await InProcessLoad.run(connections: 1, for: .milliseconds(600)) {
            await backend.handle(request)
        }
        runner.report(
            "  one connection: median latency over HTTP", value: single.percentile(0.5) * 1e6,
            p90: single.percentile(0.9) * 1e6, p99: single.percentile(0.99) * 1e6, unit: .microseconds,
            baseline: ("in process", singleLocal.percentile(0.5) * 1e6))

        // The same load with the page cache off: every request builds its page. The HTTP layer's
        // own CPU per request again, with a body written anew for each request.
        backend.pageCacheEnabled = false
        var before = processCPUSeconds()
        let uncachedLocal = await InProcessLoad.run(connections: connections, for: round) {
            await backend.handle(request)
        }
        let uncachedHandlerCPU = (processCPUSeconds() - before) / Double(max(1, uncachedLocal.requests)) * 1e6
        before = processCPUSeconds()
        let uncached = try await load.run(connections: connections, for: round)
        let uncachedCPU = (processCPUSeconds() - before) / Double(max(1, uncached.requests)) * 1e6
        backend.pageCacheEnabled = true
        runner.report(
            "  over HTTP with the page cache off", value: uncached.requestsPerSecond, unit: .perSecond,
            baseline: ("with it (above)", http.requestsPerSecond),
            note:
                "one round of \(round); p99 \(BenchFormat.number(uncached.percentile(0.99) * 1000)) ms: each "
                + "request runs the feed's query and writes its page; \(BenchFormat.number(uncachedCPU)) us of "
                + "server CPU per request")
        runner.report(
            "  HTTP layer's own CPU per request, page cache off", value: uncachedCPU - uncachedHandlerCPU,
            unit: .microseconds, baseline: ("with it (above)", httpCPU - handlerCPU),
            note:
                "over HTTP minus in process (\(BenchFormat.number(uncachedHandlerCPU)) us), one round each: "
                + "the same HTTP work on a body written anew for each request")

        // A refresh that changes nothing: the same GET with the page's entity tag gets a 304 with
        // no body. Server CPU per request, one call at a time in process (the handler's own cost).
        let probe = await backend.handle(request)
        if let tag = probe.headers["ETag"] {
            var conditional = request
            conditional.headers["If-None-Match"] = tag
            let check = await backend.handle(conditional)
            guard check.status == 304 else {
                throw BenchSetupError("the feed's own tag got \(check.status), not 304")
            }
            let cachedFull = await runner.measure(warmup: 20, runs: 200) { _ = await backend.handle(request) }
            let cachedUnchanged = await runner.measure(warmup: 20, runs: 200) {
                _ = await backend.handle(conditional)
            }
            backend.pageCacheEnabled = false
            let full = await runner.measure(warmup: 20, runs: 200) { _ = await backend.handle(request) }
            let unchanged = await runner.measure(warmup: 20, runs: 200) {
                _ = await backend.handle(conditional)
            }
            backend.pageCacheEnabled = true
            runner.report(
                "  a refresh that changes nothing (304), per request", value: cachedUnchanged.median * 1e6,
                p90: cachedUnchanged.p90 * 1e6, unit: .microseconds,
                baseline: ("the full page built, 200", full.median * 1e6),
                note: "in process, one at a time, from the page cache: the change probe and a lookup; "
                    + "\(probe.body.count) bytes not sent. With the cache off the 304 costs "
                    + "\(BenchFormat.number(unchanged.median * 1e6)) us (the ranking walk and the tag)")
            runner.report(
                "  the unchanged page from the page cache (200), per request", value: cachedFull.median * 1e6,
                p90: cachedFull.p90 * 1e6, unit: .microseconds,
                baseline: ("the page built", full.median * 1e6),
                note:
                    "in process, one at a time; any write to the database, from any process, empties the cache"
            )
        } else {
            runner.log("warning: the feed came without an ETag; the 304 row is skipped")
        }

        if let wrk = Wrk.path() {
            runner.log("wrk found at \(wrk); running it for the record")
            if let rate = Wrk.run(wrk, url: "\(server.baseURL)/v1/feed", token: token) {
                runner.report("  wrk: GET /v1/feed, 64 connections", value: rate, unit: .perSecond)
            }
        }
        _ = await server.shutdown(gracePeriod: .seconds(1))

        if !runner.deploymentEngines.isEmpty {
            try await measureDeployments(engines: runner.deploymentEngines, page: served.body, runner: runner)
        }
    }

    /// nginx serving `page`, or nil with the reason printed (never skipped silently).
    private static func startNginx(page: [UInt8], runner: BenchRunner) -> Nginx? {
        do {
            let binary = try Nginx.binary(log: runner.log)
            let workers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            let nginx = try Nginx(binary: binary, page: page, workers: workers)
            let fetched = try LoadClient.fetch(
                port: nginx.port, request: LoadProcess.request(port: nginx.port, token: "unused"))
            guard fetched.body == page else {
                nginx.stop()
                throw SpawnFailure(
                    "nginx served \(fetched.body.count) bytes, not the \(page.count) bytes written: \(fetched.head)"
                )
            }
            runner.log(
                "nginx (\(binary)) on port \(nginx.port), \(nginx.workers) workers, serving the same \(page.count) "
                    + "bytes after a \(fetched.head.utf8.count)-byte head")
            return nginx
        } catch {
            runner.log("the nginx rows are skipped: \(error)")
            return nil
        }
    }
}

// The suite's load generators, nested so their names stay out of the bench's namespace.
extension HTTPSuite {
    /// The load client in a process of its own: this bench binary re-spawned as
    /// `bench load-client PORT TOKEN CONNECTIONS MILLISECONDS`, so the client's work is not
    /// counted against the server's process (it still shares the machine's cores, as any
    /// client on the same machine would).
    ///
    /// The child prints `requests N failures N elapsed SECONDS` and then every latency in
    /// nanoseconds on one line.
    struct LoadProcess: Sendable {
        /// The first argument that selects this mode.
        static let mode = "load-client"

        let bench: String
        let port: Int
        let token: String

        init(port: Int, token: String) throws {
            bench = try BinaryDirectory.ofThisProcess().this
            self.port = port
            self.token = token
        }

        /// Runs one load round in a child process and returns what it measured.
        func run(connections: Int, for duration: Duration) async throws -> LoadResult {
            let milliseconds = Int(duration.seconds * 1000)
            let arguments = [Self.mode, String(port), token, String(connections), String(milliseconds)]
            let outcome = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Spawn.Outcome, any Error>) in
                let thread = Thread { [bench] in
                    continuation.resume(with: Result { try Spawn.run(bench, arguments, frameMarker: nil) })
                }
                thread.name = "bench-load-process"
                thread.start()
            }
            guard outcome.status == 0 else {
                throw SpawnFailure("the load client exited with \(outcome.status): \(outcome.errors)")
            }
            let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false)
            let words = lines.first?.split(separator: " ") ?? []
            guard words.count == 6, let requests = Int(words[1]), let failures = Int(words[3]),
                let elapsed = Double(words[5])
            else {
                throw SpawnFailure("the load client printed no summary: \(outcome.output.prefix(200))")
            }
            let latencies = (lines.count > 1 ? lines[1].split(separator: " ") : []).compactMap { Double($0) }
                .map { $0 / 1e9 }
            return LoadResult(
                requests: requests, failures: failures, elapsed: elapsed, latencies: latencies.sorted())
        }

        /// The request every connection sends, again and again.
        static func request(port: Int, token: String) -> [UInt8] {
            Array(
                "GET /v1/feed HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n"
                    .utf8)
        }

        /// The child's side: `ARGUMENTS` are what follows the mode. Returns the exit status.
        static func main(_ arguments: [String]) -> Int32 {
            guard arguments.count == 4, let port = Int(arguments[0]), let connections = Int(arguments[2]),
                let milliseconds = Int(arguments[3])
            else {
                FileHandle.standardError.write(
                    Data("usage: bench \(mode) PORT TOKEN CONNECTIONS MILLISECONDS\n".utf8))
                return 2
            }
            let request = request(port: port, token: arguments[1])
            do {
                let result = try LoadClient.drive(
                    port: port, request: request, connections: connections,
                    duration: .milliseconds(milliseconds))
                var text =
                    "requests \(result.requests) failures \(result.failures) elapsed \(result.elapsed)\n"
                text += result.latencies.map { String(Int(($0 * 1e9).rounded())) }.joined(separator: " ")
                text += "\n"
                FileHandle.standardOutput.write(Data(text.utf8))
                return 0
            } catch {
                FileHandle.standardError.write(Data("bench \(mode): \(error)\n".utf8))
                return 1
            }
        }
    }

    /// What a load run measured.
    struct LoadResult: Sendable {
        var requests = 0
        var failures = 0
        var elapsed: Double = 0
        /// Every request's latency in seconds, sorted.
        var latencies: [Double] = []

        var requestsPerSecond: Double { elapsed > 0 ? Double(requests) / elapsed : 0 }

        func percentile(_ fraction: Double) -> Double { Samples(latencies).percentile(fraction) }

        /// The round with the median rate, with every round's latencies.
        static func combined(_ rounds: [LoadResult]) -> LoadResult {
            let byRate = rounds.sorted { $0.requestsPerSecond < $1.requestsPerSecond }
            var result = byRate.isEmpty ? LoadResult() : byRate[byRate.count / 2]
            result.latencies = rounds.flatMap(\.latencies).sorted()
            result.failures = rounds.reduce(0) { $0 + $1.failures }
            return result
        }
    }

    /// The handler called in process by `connections` tasks, each calling again as soon as its
    /// call returns, for `duration`.
    enum InProcessLoad {
        static func run(
            connections: Int, for duration: Duration, _ call: @escaping @Sendable () async -> Response
        )
            async -> LoadResult
        {
            let clock = ContinuousClock()
            let start = clock.now
            let end = start + duration
            let perTask = await withTaskGroup(of: ([Double], Int).self) { group in
                for _ in 0..<connections {
                    group.addTask {
                        var latencies: [Double] = []
                        var failures = 0
                        while clock.now < end {
                            let began = clock.now
                            let response = await call()
                            latencies.append((clock.now - began).seconds)
                            if response.status != 200 { failures += 1 }
                        }
                        return (latencies, failures)
                    }
                }
                var all: [([Double], Int)] = []
                for await result in group { all.append(result) }
                return all
            }
            let latencies = perTask.flatMap(\.0)
            return LoadResult(
                requests: latencies.count, failures: perTask.reduce(0) { $0 + $1.1 },
                elapsed: (clock.now - start).seconds,
                latencies: latencies.sorted())
        }
    }

    /// A raw-socket HTTP/1.1 load client: `connections` keep-alive connections multiplexed with
    /// `poll(2)` on one thread (of the `load-client` process), each
    /// sending the same request again as soon as the previous response has arrived in full.
    ///
    /// It reads just enough of each response to frame it: the status line and `Content-Length`.
    final class LoadClient: @unchecked Sendable {
        // Invariant: all mutable state is used only by the thread `run` starts; the result is handed
        // back through a continuation once that thread is done with it.

        /// One connection. Only a response's head is kept: once its length is known, the body's
        /// bytes are counted as they arrive, not copied (the client shares the server's two cores,
        /// so what it spends is taken from the server).
        private final class Channel {
            let fd: Int32
            /// The response's bytes so far, while its head is incomplete.
            var head: [UInt8] = []
            /// The response's whole length once its head is read, and how much of it arrived.
            var expected: Int?
            var received = 0
            var sentAt: UInt64 = 0
            var sent = 0
            init(fd: Int32) { self.fd = fd }
        }

        struct LoadError: Error, CustomStringConvertible {
            let description: String
        }

        private static func monotonic() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }

        private static func connect(port: Int) throws(LoadError) -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw LoadError(description: "socket() failed: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                close(fd)
                throw LoadError(description: "cannot connect to 127.0.0.1:\(port): errno \(errno)")
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return fd
        }

        static func drive(port: Int, request: [UInt8], connections: Int, duration: Duration)
            throws(LoadError)
            -> LoadResult
        {
            var channels: [Channel] = []
            defer { for channel in channels { close(channel.fd) } }
            for _ in 0..<connections { channels.append(Channel(fd: try connect(port: port))) }
            let (seconds, attoseconds) = duration.components
            let start = monotonic()
            let end = start + UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
            var result = LoadResult()
            result.latencies.reserveCapacity(100_000)
            var scratch = [UInt8](repeating: 0, count: 256 * 1024)
            let okStatus = Array("HTTP/1.1 200".utf8)
            func send(_ channel: Channel) throws(LoadError) {
                channel.sentAt = monotonic()
                let written = request.withUnsafeBytes {
                    Glibc.send(channel.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard written == request.count else {
                    throw LoadError(description: "short write of a request: \(written)")
                }
            }
            for channel in channels { try send(channel) }
            var descriptors = channels.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            var active = channels.count
            while active > 0 {
                let ready = poll(&descriptors, nfds_t(descriptors.count), 1000)
                guard ready > 0 else {
                    if ready == 0 {
                        throw LoadError(description: "no response for 1 s; is the server stuck?")
                    }
                    continue
                }
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    let channel = channels[index]
                    let count = scratch.withUnsafeMutableBytes {
                        recv(channel.fd, $0.baseAddress, $0.count, 0)
                    }
                    guard count > 0 else {
                        throw LoadError(description: "the server closed a connection (\(count))")
                    }
                    if channel.expected == nil {
                        channel.head.append(contentsOf: scratch[0..<count])
                        guard let total = responseLength(channel.head) else { continue }
                        channel.expected = total
                        channel.received = channel.head.count
                        if !channel.head.starts(with: okStatus) { result.failures += 1 }
                        channel.head.removeAll(keepingCapacity: true)
                    } else {
                        channel.received += count
                    }
                    guard let total = channel.expected, channel.received >= total else { continue }
                    guard channel.received == total else {
                        throw LoadError(
                            description: "more bytes than one response: pipelining is not used here")
                    }
                    channel.expected = nil
                    channel.received = 0
                    let now = monotonic()
                    result.requests += 1
                    result.latencies.append(Double(now - channel.sentAt) / 1e9)
                    if now < end {
                        try send(channel)
                    } else {
                        descriptors[index].events = 0
                        descriptors[index].fd = -1
                        active -= 1
                    }
                }
            }
            result.elapsed = Double(monotonic() - start) / 1e9
            result.latencies.sort()
            return result
        }

        /// One request on a connection of its own; returns the response's head (through the empty
        /// line) and its body.
        static func fetch(port: Int, request: [UInt8]) throws(LoadError) -> (head: String, body: [UInt8]) {
            let fd = try connect(port: port)
            defer { close(fd) }
            let written = request.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written == request.count else { throw LoadError(description: "short write of a request") }
            var response: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while responseLength(response).map({ response.count < $0 }) ?? true {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    throw LoadError(description: "the connection ended after \(response.count) bytes")
                }
                response.append(contentsOf: chunk[0..<count])
            }
            let total = responseLength(response) ?? response.count
            guard
                let headEnd = (3..<response.count).first(where: {
                    response[$0] == 0x0A && response[$0 - 1] == 0x0D && response[$0 - 2] == 0x0A
                        && response[$0 - 3] == 0x0D
                })
            else { throw LoadError(description: "a response without a head") }
            return (
                String(decoding: response[...headEnd], as: UTF8.self), Array(response[(headEnd + 1)..<total])
            )
        }

        /// The full length of the response at the start of `bytes` (head plus `Content-Length`), or
        /// nil while its head is incomplete.
        private static func responseLength(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            var headEnd: Int?
            for index in 3..<bytes.count
            where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A
                && bytes[index - 3] == 0x0D
            {
                headEnd = index + 1
                break
            }
            guard let headEnd else { return nil }
            let head = String(decoding: bytes[0..<headEnd], as: UTF8.self).lowercased()
            guard let range = head.range(of: "\r\ncontent-length:") else { return headEnd }
            let digits = head[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
            return headEnd + (Int(digits) ?? 0)
        }
    }

    /// The `wrk` load generator, when installed.
    enum Wrk {
        static func path() -> String? {
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin")
                .split(
                    separator: ":")
            return directories.map { "\($0)/wrk" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// Requests per second from `wrk -t2 -c64 -d3s`, or nil when it fails.
        static func run(_ path: String, url: String, token: String) -> Double? {
            let arguments = ["-t2", "-c64", "-d3s", "-H", "Authorization: Bearer \(token)", url]
            guard let result = try? Subprocess.run(path, arguments), result.status == 0 else { return nil }
            let text = String(decoding: result.output, as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") })
            else {
                return nil
            }
            return Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
        }
    }
}
