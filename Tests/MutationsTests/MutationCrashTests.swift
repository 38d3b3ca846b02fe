@_spi(Testing) import Backend
import Basics
import Foundation
import PostgresStorage
import ServerTesting
import Storage
import Synchronization
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The real crash test: `mutation-crash-helper` (built next to this test bundle) enqueues and
/// sends mutations to a backend database shared with this test, and is killed with SIGKILL at
/// random moments, 200 times, then relaunched once to drain its journal. Every mutation it
/// acknowledged (printed after `enqueue` returned) must be applied exactly once, nothing twice,
/// and the posts, thread and conversation lanes in the order made (messages go to two
/// conversations). A second test does the same over HTTP,
/// against a `backend-server` process whose fault mode loses responses after applying changes.
///
/// Both sign in with the demo password and run with tokens that live one second, so sessions
/// expire and are renewed (and, after a kill between the server's rotation and the helper's save,
/// signed in again) throughout: the counts hold with renewal in play, and the test checks that
/// renewals happened.
///
/// `MUTATION_CRASH_RUNS=2000` runs it longer; `MUTATION_CRASH_SEED` picks the kill schedule.
@Suite(.timeLimit(LongRunSettings.crashLimit)) struct MutationCrashTests {
    static let runs = LongRunSettings.crashRuns
    static let seed = LongRunSettings.crashSeed

    /// The helper executable, next to the running test bundle.
    static var helperPath: String { siblingExecutable("mutation-crash-helper") }

    /// An executable product built next to the running test bundle.
    static func siblingExecutable(_ name: String) -> String { PipedServerProcess.siblingExecutable(name) }

    struct Acknowledged: Hashable {
        var token: String
        var kind: String
        var target: String
    }

    @Test func killedAtRandomMoments_loseNothingAcknowledged_applyNothingTwice_andKeepLaneOrder() async throws
    {
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        let backendDirectory = (backend.databasePath as NSString).deletingLastPathComponent
        backend.close()

        // Given the helper killed at random moments, again and again, then drained
        let outcome = try await Self.crashAndDrain(
            runs: Self.runs, backend: ["--backend", backendDirectory, "--token-lifetime", "1"])

        // Then every acknowledged mutation was applied once, nothing twice, lanes in order, while
        // sessions were renewed
        try Self.expectAppliedOnceInOrder(
            outcome, runs: Self.runs, database: Database(path: backend.databasePath))
        #expect(outcome.renewals > 0, "no session was renewed: tokens did not expire during the run")
        print(
            "crash test: \(Self.runs) runs (seed \(Self.seed)), \(outcome.killedMidRun) killed mid-run, "
                + "\(outcome.acknowledged.count) acknowledged mutations "
                + "(\(outcome.acknowledged.filter { $0.kind == "message" }.count) messages), all applied once; "
                + "\(outcome.renewals) sessions renewed, \(outcome.signIns) sign-ins")
    }

    /// The same crash test with the backend behind a real socket: `backend-server` runs in its
    /// own process (so nothing in this test process can starve it) with faults on the wire,
    /// among them connections closed after a change was applied but before its response was
    /// written. The helper must resend those with the same client token, and the server must
    /// not apply them twice.
    @Test func overHTTP_withResponsesLostAfterApply_nothingIsAppliedTwice() async throws {
        let runs = max(Self.runs / 8, 10)
        let server = Self.siblingExecutable("backend-server")
        try #require(
            FileManager.default.isExecutableFile(atPath: server),
            "no server at \(server); build it with `swift build --product backend-server`")
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        let backendDirectory = (backend.databasePath as NSString).deletingLastPathComponent
        backend.close()

        // Given a backend-server that loses a fifth of the responses to changes after applying them.
        // (No injected 503s: they carry Retry-After: 1, which the manager honors, so under a loaded
        // test run they would stretch the drain to minutes; the embedded test covers them.)
        let faults = "latency=0ms..2ms,drop=0.2,seed=\(Self.seed)"
        let process = try Self.launch(
            server,
            [
                "--port", "0", "--data-dir", backendDirectory, "--faults", faults, "--demo",
                "--token-lifetime", "1",
            ])
        defer { process.kill(SIGKILL) }
        let url = try await Self.listeningURL(of: process)

        // When the helper is killed at random moments while sending to it, then drained
        let outcome = try await Self.crashAndDrain(
            runs: runs, backend: ["--server", url])
        process.kill(SIGTERM)
        await process.exited()
        #expect(process.terminationStatus == 0, "backend-server: \(process.lines().suffix(3))")

        // Then responses were lost after apply, and still nothing was applied twice
        let dropped = process.lines().filter { $0.hasSuffix("(dropped after apply (fault))") }.count
        #expect(dropped > 0, "the server lost no responses after applying; the fault mode did not run")
        try Self.expectAppliedOnceInOrder(outcome, runs: runs, database: Database(path: backend.databasePath))
        #expect(outcome.renewals > 0, "no session was renewed: tokens did not expire during the run")
        print(
            "crash test over HTTP: \(runs) runs (seed \(Self.seed)), \(outcome.killedMidRun) killed mid-run, "
                + "\(outcome.acknowledged.count) acknowledged mutations "
                + "(\(outcome.acknowledged.filter { $0.kind == "message" }.count) messages), \(dropped) responses lost after "
                + "apply, all applied once; \(outcome.renewals) sessions renewed, \(outcome.signIns) sign-ins"
        )
    }

    /// The crash test against two servers behind HAProxy on one PostgreSQL database, as
    /// `tools/deploy-local` runs them: the helper is killed at random moments as above, except in
    /// one run, where one of the two servers is killed (SIGKILL) while the helper sends a burst.
    /// The helper carries on through HAProxy to the other server and ends that run by itself, and
    /// the drain finds nothing pending: what it acknowledged is in the database once, in order.
    @Test func twoServersBehindHAProxy_oneKilledMidBurst_theClientCarriesOn() async throws {
        let deployment = try await LocalDeployment(servers: 2)
        let runs = max(Self.runs / 20, 8)

        // Given the helper killed at random moments, and in its third run server 1 killed instead
        let outcome = try await Self.crashAndDrain(
            runs: runs, backend: ["--server", deployment.url],
            serverKill: ServerKill(run: 3, pid: deployment.servers[0]))

        // Then the helper sent the rest of that burst and its run through the other server, and
        // every acknowledged mutation is on the shared database once, lanes in order
        #expect(outcome.serverKilledMidBurst, "server 1 was not killed while the helper sent")
        let database = try Database.postgres(deployment.databaseURL)
        try Self.expectAppliedOnceInOrder(outcome, runs: runs, database: database)
        try database.close()
        #expect(await deployment.stop() == 0)
        print(
            "crash test behind HAProxy: \(runs) runs (seed \(Self.seed)), \(outcome.killedMidRun) killed mid-run, "
                + "server 1 of 2 killed mid-burst, \(outcome.acknowledged.count) acknowledged mutations, all applied once"
        )
    }

    /// A server to kill with SIGKILL in one run, once the helper has acknowledged a few
    /// mutations, instead of killing the helper.
    struct ServerKill {
        var run: Int
        var pid: pid_t
    }

    struct Outcome {
        var acknowledged: [Acknowledged] = []
        var killedMidRun = 0
        /// How many times a helper renewed its session (`RENEWED` lines).
        var renewals = 0
        /// How many times a helper signed in with the password (`SIGNED_IN` lines).
        var signIns = 0
        /// Whether a server was killed while the helper was still sending, and the helper then
        /// ended its run by itself.
        var serverKilledMidBurst = false

        mutating func count(_ lines: [String]) {
            renewals += lines.filter { $0 == "RENEWED" }.count
            signIns += lines.filter { $0 == "SIGNED_IN" }.count
        }
    }

    /// Launches the helper `runs` times against `backend` (its `--backend` or `--server`
    /// arguments), kills most runs at a random moment, then launches it once more to drain
    /// its journal and expects the drain to finish with nothing pending or failed.
    /// With `serverKill`, its run kills the server instead (see `ServerKill`) and expects the
    /// helper to end that run by itself, with nothing left unsent.
    static func crashAndDrain(runs: Int, backend: [String], serverKill: ServerKill? = nil) async throws
        -> Outcome
    {
        let helper = helperPath
        try #require(
            FileManager.default.isExecutableFile(atPath: helper),
            "no helper at \(helper); build it with `swift build --product mutation-crash-helper`")
        let app = try BackendServer.makeTemporaryDirectory("crash-app")
        var random = simulationRandom(seed: seed)
        var outcome = Outcome()

        for run in 1...runs {
            let process = try launch(helper, ["--app", app, "--run", "\(run)"] + backend)
            if let serverKill, serverKill.run == run {
                outcome.serverKilledMidBurst = try await killServerMidBurst(serverKill.pid, while: process)
                outcome.acknowledged += process.lines().compactMap(parse)
                outcome.count(process.lines())
                continue
            }
            let waitForAcks = random.below(3) != 0
            let threshold = random.below(12)
            let delay = 1 + random.below(40)
            let killed = await killWhenDue(process) { elapsed in
                waitForAcks ? process.lineCount() > threshold || elapsed > 2000 : elapsed >= Double(delay)
            }
            if killed { outcome.killedMidRun += 1 }
            await process.exited()
            outcome.acknowledged += process.lines().compactMap(parse)
            outcome.count(process.lines())
        }

        let drain = try launch(helper, ["--app", app, "--run", "0", "--drain"] + backend)
        let deadline = Date().addingTimeInterval(600)
        while drain.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        if drain.isRunning {
            drain.kill(SIGKILL)
            Issue.record(
                "the drain did not finish in 600 s; it printed: \(drain.lines().suffix(5)) \(drain.errors)")
        }
        await drain.exited()
        #expect(drain.terminationStatus == 0, "the drain failed: \(drain.errors)")
        #expect(drain.lines().last == "DRAINED pending=0 failed=0")
        outcome.count(drain.lines())
        return outcome
    }

    /// Kills `server` once `helper` has printed five lines (acknowledged mutations, mostly), then
    /// waits (up to 120 s) for the helper to end its run; true when the helper had not finished
    /// sending at the kill and then ended by itself, with status 0 and `IDLE` (nothing pending).
    static func killServerMidBurst(_ server: pid_t, while helper: ChildProcess) async throws -> Bool {
        let sending = Mutex(false)
        let running = await whenDue(helper, { elapsed in helper.lineCount() > 5 || elapsed > 10_000 }) {
            kill(server, SIGKILL)
            sending.withLock { $0 = !helper.lines().contains("IDLE") }
        }
        let deadline = Date().addingTimeInterval(120)
        while helper.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if helper.isRunning {
            helper.kill(SIGKILL)
            Issue.record("the helper did not end its run in 120 s after the server was killed")
        }
        await helper.exited()
        #expect(
            helper.terminationStatus == 0, "the helper failed after the server was killed: \(helper.errors)")
        #expect(helper.lines().last == "IDLE", "the helper ended with \(helper.lines().suffix(2))")
        return running && sending.withLock { $0 } && helper.lines().last == "IDLE"
    }

    /// Every acknowledged mutation applied exactly once, no post made twice, and the posts and
    /// replies lanes applied in the order they were made.
    static func expectAppliedOnceInOrder(_ outcome: Outcome, runs: Int, database: Database) throws {
        let acknowledged = outcome.acknowledged
        #expect(outcome.killedMidRun > runs / 2, "most runs should be killed while working")
        #expect(acknowledged.count > runs, "the helper acknowledged only \(acknowledged.count) mutations")
        // A post's JSON as text: a BLOB cast on SQLite, BYTEA decoded on PostgreSQL.
        let json = database.dialect == .postgres ? "convert_from(json, 'UTF8')" : "CAST(json AS TEXT)"
        for ack in acknowledged {
            let recorded = try database.query(
                #"SELECT status FROM mutations WHERE "user" = 1 AND token = ?"#, ack.token
            ).first?.int(0)
            #expect(recorded.map { (200..<300).contains($0) } == true, "acknowledged \(ack) was not applied")
        }
        let twice = try database.query(
            "SELECT client_token, COUNT(*) FROM posts WHERE client_token IS NOT NULL GROUP BY client_token HAVING COUNT(*) > 1"
        )
        #expect(twice.isEmpty, "posts made twice: \(twice)")
        // Every photo post's photo stored once, and no path from the client's journal on the server.
        // (The seed's own photos are dated by their posts, before any client's change.)
        let photos =
            try database.query(
                "SELECT COUNT(*) FROM photos WHERE created_at > (SELECT MAX(created_at) FROM posts WHERE client_token IS NULL)"
            ).first?.int(0) ?? 0
        let photoPosts =
            try database.query(
                #"SELECT COUNT(*) FROM posts WHERE client_token IS NOT NULL AND \#(json) LIKE '%"id":"p%'"#
            )
            .first?
            .int(0) ?? -1
        #expect(photos > 0, "no photo post was applied")
        #expect(photos == photoPosts, "\(photos) photos stored for \(photoPosts) photo posts")
        let paths = try database.query(
            #"SELECT COUNT(*) FROM posts WHERE \#(json) LIKE '%"file"%'"#
        )
        .first?.int(0)
        #expect(paths == 0, "a client's file path reached the server's posts")
        // Every acknowledged message on the server once, none twice, each conversation's in the
        // order typed.
        let messages = acknowledged.filter { $0.kind == "message" }
        #expect(!messages.isEmpty, "no message was acknowledged")
        let doubled = try database.query(
            "SELECT client_token, COUNT(*) FROM messages WHERE client_token IS NOT NULL GROUP BY client_token HAVING COUNT(*) > 1"
        )
        #expect(doubled.isEmpty, "messages sent twice: \(doubled)")
        for conversation in Set(messages.map(\.target)).sorted() {
            let ids = try messages.filter { $0.target == conversation }.map { ack -> Int64 in
                let row = try database.query(
                    "SELECT id, 'c' || conversation FROM messages WHERE client_token = ?", ack.token
                ).first
                let id = try #require(try row?.int64(0), "no message for acknowledged token \(ack.token)")
                let went = try row?.string(1)
                #expect(went == conversation, "\(ack.token) went to \(went ?? "-")")
                return id
            }
            #expect(ids == ids.sorted(), "\(conversation)'s messages were applied out of order: \(ids)")
        }
        for kind in ["post", "reply"] {
            let ids = try acknowledged.filter { $0.kind == kind }.map { ack -> Int64 in
                let id = try database.query("SELECT id FROM posts WHERE client_token = ?", ack.token).first?
                    .int64(0)
                return try #require(id, "no \(kind) for acknowledged token \(ack.token)")
            }
            #expect(ids == ids.sorted(), "the \(kind) lane was applied out of order: \(ids)")
            #expect(Set(ids).count == ids.count)
        }
    }

    /// The base URL a `backend-server` prints once it listens ("listening on http://...").
    static func listeningURL(of server: ChildProcess) async throws -> String {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let prefix = "listening on "
            if let line = server.lines().first(where: { $0.hasPrefix(prefix) }) {
                return String(line.dropFirst(prefix.count))
            }
            guard server.isRunning else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw CrashTestError(
            "backend-server did not start listening; it printed: \(server.lines()) \(server.errors)")
    }

    struct CrashTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func parse(_ line: String) -> Acknowledged? {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 4, parts[0] == "ACK" else { return nil }
        return Acknowledged(token: parts[1], kind: parts[2], target: parts[3])
    }

    /// Watches `process` on a thread of its own and kills it with SIGKILL once `isDue` (given
    /// the milliseconds since the watch began) says so; true if it was still running then. The
    /// watch must not wait for a turn of the test's cooperative thread pool: while the other
    /// suites keep that pool busy, a watch there woke late and the helper ran to its end.
    static func killWhenDue(_ process: ChildProcess, _ isDue: @escaping @Sendable (Double) -> Bool) async
        -> Bool
    {
        await whenDue(process, isDue) { process.kill(SIGKILL) }
    }

    /// Watches `process` as `killWhenDue` does and runs `action` once `isDue` says so; true if
    /// the process was still running then (otherwise `action` does not run).
    static func whenDue(
        _ process: ChildProcess, _ isDue: @escaping @Sendable (Double) -> Bool,
        _ action: @escaping @Sendable () -> Void
    ) async -> Bool {
        await withCheckedContinuation { continuation in
            let watch = Thread {
                let started = Date()
                while process.isRunning {
                    if isDue(Date().timeIntervalSince(started) * 1000) { break }
                    usleep(200)
                }
                guard process.isRunning else { return continuation.resume(returning: false) }
                action()
                continuation.resume(returning: true)
            }
            watch.start()
        }
    }

    static func launch(_ path: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(path, arguments)
    }
}
