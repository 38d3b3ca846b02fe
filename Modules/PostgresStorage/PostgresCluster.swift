import CommandLineKit
import Foundation
import Storage

/// A throwaway PostgreSQL server on this machine: a new cluster in a temporary directory
/// (`initdb`), started on a free port of 127.0.0.1 (`pg_ctl`), stopped and deleted by `stop()`.
/// For tests, benches and `tools/deploy-local`; nothing depends on a machine's own PostgreSQL
/// service.
///
/// ```swift
/// let cluster = try PostgresCluster.start()
/// defer { cluster.stop() }
/// let database = try Database.postgres(try cluster.createDatabase("feed_test"))
/// ```
///
/// It needs the server's programs (Debian's `postgresql` package). PostgreSQL refuses to run as
/// root, so a root caller runs them as the `postgres` account the package creates. Anyone on
/// this machine may connect as `user` without a password (trust on 127.0.0.1 only).
public final class PostgresCluster: Sendable {
    /// The cluster's directory (its data, its log and its socket).
    public let directory: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The superuser to connect as.
    public let user = "loom"
    private let programs: String
    private let runAs: String?
    private let durable: Bool

    /// Why a cluster could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        /// What failed and what to do.
        public let description: String

        /// An error saying `description`.
        public init(description: String) { self.description = description }
    }

    private init(directory: String, port: Int, programs: String, runAs: String?, durable: Bool) {
        self.directory = directory
        self.port = port
        self.programs = programs
        self.runAs = runAs
        self.durable = durable
    }

    /// Makes and starts a new cluster.
    ///
    /// - Parameter durable: whether commits are flushed to disk (`fsync`); tests leave it off
    ///   for speed, since their data dies with the cluster anyway.
    /// - Throws: `StartError` naming the missing package, or with the server's log when it
    ///   does not start.
    public static func start(durable: Bool = false) throws -> PostgresCluster {
        let programs = try serverPrograms()
        sweepAbandoned(programs: programs)
        let runAs = getuid() == 0 ? "postgres" : nil
        if let runAs, getpwnam(runAs) == nil {
            throw StartError(
                description: "PostgreSQL will not run as root and there is no '\(runAs)' account to run it "
                    + "as; install Debian's postgresql package, which makes it, or run as another user")
        }
        var template = Array((NSTemporaryDirectory() + "loom-postgres-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StartError(
                description: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        // Which process owns the cluster, so that a later start can stop it if that process
        // died without stopping it (a crashed test run).
        try? "\(getpid())".write(toFile: directory + "/owner", atomically: true, encoding: .utf8)
        if let runAs, let account = getpwnam(runAs) {
            chown(directory, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        let data = directory + "/data"
        var lastFailure = ""
        let initialized = try run(
            programs + "/initdb",
            ["-D", data, "-U", "loom", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
            as: runAs)
        guard initialized.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw StartError(description: "initdb failed: \(initialized.output)")
        }
        // A free port can be taken between choosing it and the server binding it: try a few.
        for _ in 0..<5 {
            let cluster = PostgresCluster(
                directory: directory, port: try freePort(), programs: programs, runAs: runAs, durable: durable
            )
            do {
                try cluster.startServer()
                return cluster
            } catch {
                lastFailure = error.description
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw StartError(description: "the PostgreSQL server did not start: \(lastFailure)")
    }

    /// Starts the cluster's server (again, after `stopServer()`), on its port.
    ///
    /// - Throws: `StartError` with the server's log when it does not start.
    public func startServer() throws(StartError) {
        var options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=200"
        if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        let started = try Self.run(
            programs + "/pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "30", "-o", options,
                "start",
            ],
            as: runAs)
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw StartError(
                description: "the PostgreSQL server did not start: \(started.output) \(log.suffix(2000))")
        }
    }

    /// Stops the cluster's server at once (its connections are cut; its data stays), as a
    /// database that goes away under its clients does.
    public func stopServer() {
        _ = try? Self.run(
            programs + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], as: runAs)
    }

    /// Stops and deletes the clusters whose owning process is gone (it crashed, or was killed,
    /// before it could stop them).
    static func sweepAbandoned(programs: String) {
        let temporary = NSTemporaryDirectory()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix("loom-postgres-") {
            let directory = (temporary as NSString).appendingPathComponent(name)
            guard
                let text = try? String(contentsOfFile: directory + "/owner", encoding: .utf8),
                let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            let runAs = getuid() == 0 ? "postgres" : nil
            _ = try? run(
                programs + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], as: runAs)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The URL of a database in this cluster.
    public func url(database: String = "postgres") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)"
    }

    /// Creates an empty database (dropping one of the same name) and returns its URL.
    public func createDatabase(_ name: String) throws -> String {
        let admin = try Database.postgres(url())
        defer { try? admin.close() }
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try admin.executeScript("DROP DATABASE IF EXISTS \(quoted)")
        try admin.executeScript("CREATE DATABASE \(quoted)")
        return url(database: name)
    }

    /// Stops the server at once and deletes the cluster.
    public func stop() {
        stopServer()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The directory of `initdb` and `pg_ctl`: on the PATH, else Debian's newest
    /// `/usr/lib/postgresql/<version>/bin`.
    static func serverPrograms() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: directory + "/initdb")
            && FileManager.default.isExecutableFile(atPath: directory + "/pg_ctl")
        {
            return directory
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let directory = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: directory + "/initdb") { return directory }
        }
        throw StartError(
            description: "PostgreSQL's server programs (initdb, pg_ctl) are not installed; install Debian's "
                + "postgresql package (apt-get install postgresql), which .ci/run does when it is missing")
    }

    /// A TCP port of 127.0.0.1 nobody listens on now.
    public static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw StartError(description: "cannot open a socket to find a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "cannot bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program (as `user` when given, through runuser) and returns its status and output.
    static func run(_ program: String, _ arguments: [String], as user: String?) throws(StartError) -> (
        status: Int32, output: String
    ) {
        let result: Subprocess.Result
        do {
            result =
                if let user {
                    try Subprocess.run("/usr/sbin/runuser", ["-u", user, "--", program] + arguments)
                } else {
                    try Subprocess.run(program, arguments)
                }
        } catch {
            throw StartError(description: "cannot run \(program): \(error)")
        }
        let text = String(decoding: result.output, as: UTF8.self) + result.errorText
        return (result.status, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
