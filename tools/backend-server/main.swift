import Backend
import CommandLineKit
import Dispatch
import Foundation
import HTTPServer
import PostgresStorage
import Storage
import Synchronization
import Wire

#if canImport(Glibc)
    import Glibc
#endif

// backend-server: serves the backend over HTTP/1.1 until SIGINT or SIGTERM.

// Neither a client hanging up while a response is written nor a reader of the output going
// away (`| head -1`, `| tee` after Ctrl-C) may kill the process: writes fail instead.
signal(SIGPIPE, SIG_IGN)
let output = DescriptorOutput()
let options: BackendServerOptions
do {
    options = try BackendServerOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    output.writeError("\(error)\n")
    exit(2)
}
if options.help {
    output.write(BackendServerOptions.spec.helpText + "\n")
    exit(0)
}
if options.version {
    output.write(ToolVersion.line(for: BackendServerOptions.command) + "\n")
    exit(0)
}

// The first SIGINT or SIGTERM starts a graceful shutdown; a second one exits at once.
let firstSignal = AsyncStream<Int32>.makeStream()
let signalCount = Mutex(0)
let watcher = SignalWatcher(label: "backend-server.signals")
watcher.install([SIGINT, SIGTERM]) { signalNumber in
    let count = signalCount.withLock { count in
        count += 1
        return count
    }
    if count == 1 {
        firstSignal.continuation.yield(signalNumber)
    } else {
        DescriptorOutput().write("backend-server: stopped at once\n")
        exit(130)
    }
}

let backend: BackendServer
do {
    var policy = BackendServer.SessionPolicy()
    if let seconds = options.tokenLifetime { policy.tokenLifetime = .seconds(seconds) }
    if let url = options.database {
        backend = try BackendServer(
            opening: { try Database.postgres(url, readOnly: $0) }, seed: options.seed, clock: SystemClock(),
            demoMode: options.demo, sessionPolicy: policy)
    } else {
        backend = try BackendServer(
            directory: options.dataDirectory, seed: options.seed, clock: SystemClock(),
            demoMode: options.demo,
            sessionPolicy: policy)
    }
} catch {
    let place = options.database.map { PostgresEngine.redacted($0) } ?? "'\(options.dataDirectory)'"
    output.writeError("backend-server: error: cannot open the backend in \(place): \(error)\n")
    exit(1)
}

var configuration = HTTPServer.Configuration(
    host: options.host, port: options.port, bodyIdleTimeout: options.bodyIdleTimeout,
    maxConnections: options.maxConnections, maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    faults: options.faults)
// A post's photos travel base64 in its JSON body: let bodies the backend reads through, each route
// up to its own limit (a sign-in's body larger than the backend reads is refused from its head).
configuration.limits.bodyBytes = BackendServer.maximumRequestBodySize
configuration.bodyLimit = { method, target in backend.maximumBodySize(for: method, target: target) }
let accessLog = AccessLogQueue()
if !options.quiet {
    configuration.accessLog = { entry in accessLog.append("\(entry)\n") }
}
let server: HTTPServer
do {
    server = try HTTPServer.start(configuration) { request in await backend.handle(request) }
} catch {
    var message = "backend-server: error: \(error)"
    if error.code == .addressInUse {
        message += "\n  pass --port N to use another port"
    }
    output.writeError(message + "\n")
    backend.close()
    exit(1)
}

let reachable = ["0.0.0.0", "::"].contains(options.host) ? "127.0.0.1" : options.host
let appURL = "http://\(reachable.contains(":") ? "[\(reachable)]" : reachable):\(server.port)"
var banner = """
    backend-server: serving \(backend.databasePath) (seed \(backend.seed))
    listening on \(server.baseURL)
    point an app at it from another terminal (<app>: any app in Package.swift's list):
      swift run <app> --server \(appURL)
    """
banner +=
    options.demo
    ? "\ndemo mode: the seed accounts (\(BackendSeed.firstHandle), …) sign in with the password '\(DemoAccounts.password)'"
    : "\nthe seed accounts cannot sign in (start with --demo for the demo data); create an account in the app"
if ["0.0.0.0", "::"].contains(options.host) {
    banner += "\nwarning: listening on every network interface; anyone who can reach this machine can use it"
}
if !options.faults.isNone { banner += "\nfaults: \(options.faults)" }
banner += "\npress Ctrl-C to stop\n"
output.write(banner)

for await _ in firstSignal.stream { break }
output.write(
    "\nbackend-server: shutting down: finishing requests in flight (up to 5 s; Ctrl-C again to stop now)\n")
let report = await server.shutdown(gracePeriod: .seconds(5))
backend.close()
var farewell = "backend-server: stopped (\(report.finished) requests finished, \(report.abandoned) abandoned)"
if accessLog.dropped > 0 {
    farewell += "\n\(accessLog.dropped) access log lines were dropped: the output was not read fast enough"
}
output.write(farewell + "\n")
exit(0)
