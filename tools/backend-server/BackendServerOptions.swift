import CommandLineKit
import Foundation
import HTTPServer

/// `backend-server`'s command line, read strictly (unknown or malformed options are usage
/// errors, exit status 2).
struct BackendServerOptions {
    var host = "127.0.0.1"
    var port = 8080
    var dataDirectory: String
    /// A database server's URL (`postgres://…`) to serve instead of the data directory's file.
    var database: String?
    var seed: UInt64 = 1
    var faults = HTTPFaultProfile.none
    var maxConnectionsPerAddress = HTTPServer.Configuration().maxConnectionsPerAddress
    var maxConnections: Int?
    var bodyIdleTimeout = HTTPServer.Configuration().bodyIdleTimeout
    var quiet = false
    var demo = false
    var tokenLifetime: Int?
    var help = false
    var version = false

    static let command = "backend-server"

    static let spec = CommandLineSpec(
        command: command,
        summary: """
            Serves the backend (the data the apps use) over HTTP/1.1, so an app can reach it with
            --server instead of running it embedded.
            """,
        options: [
            .value("port", "N", help: "the port to listen on (default 8080; 0 picks a free port)"),
            .value(
                "host", "ADDR",
                help: "the address to listen on (default 127.0.0.1; 0.0.0.0 exposes it to your network)"),
            .value(
                "data-dir", "DIR",
                help: "the backend's database directory (default $XDG_DATA_HOME/loom/backend, else "
                    + "~/.local/share/loom/backend: the apps' embedded backend, so both see the same data)"),
            .value(
                "database", "URL",
                help: "serve a PostgreSQL database instead of the data directory's SQLite file: "
                    + "postgres://USER[:PASSWORD]@HOST[:PORT]/NAME (migrated and seeded when new; several "
                    + "servers may share it)"),
            .value("seed", "N", help: "the demo data's seed, used when the database is new (default 1)"),
            .value(
                "faults", "PROFILE", help: "add faults for testing: latency, 5xx, lost responses (see below)"),
            .value(
                "max-connections", "N",
                help: "most connections open at once (default: as many as the process can hold, from "
                    + "its open-file limit and memory)"),
            .value(
                "max-connections-per-address", "N",
                help: "most connections open from one address (default 256)"),
            .value(
                "body-idle-timeout", "SECONDS",
                help: "close a request whose body sends no byte for this long (default 5)"),
            .flag(
                "demo",
                help: "demo mode: the seed accounts sign in with the demo password 'loom-demo' (off by "
                    + "default: anyone who can reach the server could sign in as them)"),
            .value(
                "token-lifetime", "SECONDS",
                help: "how long a bearer token lasts before the client renews it (default 3600)"),
            .flag("quiet", help: "do not print the access log"),
            .version(),
        ],
        epilogue: """
            Point an app at it from another terminal (<app>: any app's executable, as Package.swift's
            `apps` list names them, lowercased):
              swift run <app> --server http://127.0.0.1:8080

            \(HTTPFaultProfile.syntax)

            Sign-in: accounts have passwords; a token lasts an hour (--token-lifetime) and is renewed
            with its renew token (30 days). 5 wrong passwords for an account, or 20 from one address,
            in 15 minutes answer 429 until the window passes. The seed accounts sign in only with --demo.

            Limits: as many connections as the process can hold (its open-file limit, raised to the
            hard limit, less 256), 256 from one address; when all are taken, the connection idle the
            longest is closed to make room (else the oldest slow request of the address holding the
            most), one in eight is kept for addresses with none, and beyond that 503. A connection that sends nothing is closed after 10 s; a body that stops for 5 s
            is answered 408. Bodies up to each route's limit (1 MiB; 40 MiB for a post or reply),
            answered 413 from the head beyond; 64 MiB of bodies in flight at once, counted as they
            arrive (503 beyond).

            Ctrl-C (SIGINT) or SIGTERM stops it gracefully: it stops accepting, lets requests in flight
            finish for up to 5 seconds, then closes. A second Ctrl-C stops it at once.

            exit status: 0 after a clean stop, 1 when the server cannot start, 2 on a usage error.
            """)

    /// Reads the arguments (without the program name).
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> BackendServerOptions
    {
        let parsed = try spec.parse(arguments)
        var options = BackendServerOptions(dataDirectory: defaultDataDirectory(environment))
        options.help = parsed.helpRequested
        options.version = parsed.versionRequested
        options.quiet = parsed.has("quiet")
        options.demo = parsed.has("demo")
        if let seconds = try parsed.integer("token-lifetime", in: 1...31_536_000) {
            options.tokenLifetime = seconds
        }
        if let port = try parsed.integer("port", in: 0...65_535) { options.port = port }
        if let most = try parsed.integer("max-connections-per-address", in: 1...1024) {
            options.maxConnectionsPerAddress = most
        }
        if let most = try parsed.integer("max-connections", in: 1...1_048_576) {
            options.maxConnections = most
        }
        if let seconds = try parsed.integer("body-idle-timeout", in: 1...3600) {
            options.bodyIdleTimeout = .seconds(seconds)
        }
        if let host = parsed.value("host") {
            guard !host.isEmpty else {
                throw UsageError(command: command, "--host needs an address such as 127.0.0.1")
            }
            options.host = host
        }
        if let directory = parsed.value("data-dir") {
            guard !directory.isEmpty else {
                throw UsageError(command: command, "--data-dir needs a directory")
            }
            options.dataDirectory = directory
        }
        if let url = parsed.value("database") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw UsageError(
                    command: command,
                    "invalid value '\(url)' for '--database'; expected a PostgreSQL URL such as "
                        + "postgres://loom@127.0.0.1:5432/loom")
            }
            guard parsed.value("data-dir") == nil else {
                throw UsageError(
                    command: command, "--database and --data-dir name two databases; pass one of them")
            }
            options.database = url
        }
        if let text = parsed.value("seed") {
            guard let seed = UInt64(text) else {
                throw UsageError(
                    command: command,
                    "invalid value '\(text)' for '--seed'; expected a whole number from 0 up")
            }
            options.seed = seed
        }
        if let text = parsed.value("faults") {
            do {
                options.faults = try HTTPFaultProfile(parsing: text)
            } catch {
                throw UsageError(command: command, error.message)
            }
        }
        return options
    }

    /// `$XDG_DATA_HOME/loom/backend`, or `~/.local/share/loom/backend`: the directory the apps'
    /// embedded backend uses by default.
    static func defaultDataDirectory(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return "\(xdg)/loom/backend" }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return "\(home)/.local/share/loom/backend"
    }
}
