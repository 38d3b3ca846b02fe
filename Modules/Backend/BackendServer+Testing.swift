import Foundation
import Storage
import Synchronization
import Wire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_spi(Testing)
extension BackendServer {
    /// Where this process's test directories go: `<tmp>/loom-backend-tests/<process id>`, removed
    /// when the process exits. Roots of processes that are gone (crashed runs) are removed the
    /// first time it is used, so seeded copies (a few MB each) never pile up.
    private static let testRoot: Result<String, any Error> = Result {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("loom-backend-tests")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
            guard let pid = Int32(name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
        let root = parent.appendingPathComponent(String(getpid())).path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { BackendServer.removeTestRoot() }
        return root
    }

    private static func removeTestRoot() {
        if case .success(let root) = testRoot { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A seeded database file (seed 1) made once per process, for tests to copy.
    private static let template: Result<String, any Error> = Result {
        let directory = try makeTemporaryDirectory("template")
        let server = try BackendServer(
            directory: directory, seed: BackendSeed.defaultSeed, clock: ManualClock())
        server.close()
        return (directory as NSString).appendingPathComponent(databaseFileName)
    }

    /// A backend of its own in a new temporary directory, holding the default seed's data
    /// (seeded once per process, then copied: seeding is the slow part of a test). Its new
    /// passwords are hashed at the `minimal` cost unless `sessionPolicy` says otherwise: a whole
    /// test run makes hundreds of accounts and failed sign-ins, and at the standard cost they
    /// queue for the two-at-once gate until a loaded run's requests time out.
    public static func seededCopy(
        clock: any WallClock = ManualClock(), demoMode: Bool = false,
        sessionPolicy: SessionPolicy = SessionPolicy(passwordCost: .minimal)
    ) throws -> BackendServer {
        let directory = try makeTemporaryDirectory("copy")
        try FileManager.default.copyItem(
            atPath: try template.get(),
            toPath: (directory as NSString).appendingPathComponent(databaseFileName))
        return try BackendServer(
            directory: directory, seed: BackendSeed.defaultSeed, clock: clock, demoMode: demoMode,
            sessionPolicy: sessionPolicy)
    }

    /// A bearer token for the account `handle`, minted straight in the database for tests in
    /// this process (no route hands out a token without a password): a session that lasts a
    /// century, whatever `sessionPolicy` says, and works whether or not the server is in demo
    /// mode. For a handle with no account (or a database that cannot be written) it is a token
    /// no route accepts, so the test's first request says 401.
    public func testToken(forHandle handle: String) -> String {
        let token = try? core.database.transaction { db -> String? in
            guard
                let id = try db.queryFirst(
                    "SELECT id FROM users WHERE handle = ?", handle, map: { try $0.int64(0) })
            else { return nil }
            return try core.insertSession(user: id, family: nil, db, lifetime: 100 * 365 * 86_400_000).token
        }
        return token ?? "tok_no_account_\(handle)"
    }

    /// The page cache's hits and misses so far, and the pages it holds (`PageCache`).
    public var pageCacheStatistics: (hits: Int, misses: Int, pages: Int) { core.pages.statistics }

    /// Whether the page cache answers and keeps pages (on unless a bench turns it off to measure
    /// pages built).
    public var pageCacheEnabled: Bool {
        get { core.pages.enabled.load(ordering: .relaxed) }
        set { core.pages.enabled.store(newValue, ordering: .relaxed) }
    }

    /// The most password hashes (above the demo password's low cost) this process has computed at
    /// once so far: at most two may run at once, whatever the number of sign-ins.
    public static var mostConcurrentPasswordHashes: Int { PasswordHash.inFlight.withLock { $0.most } }

    /// How many passwords this server checked against an account's hash so far (each sign-in
    /// that got as far as hashing): what the sign-in limit bounds.
    public var passwordsChecked: Int { core.signInLimiter.passwordsChecked }

    /// A new empty directory under this process's test root.
    public static func makeTemporaryDirectory(_ name: String) throws -> String {
        let path = (try testRoot.get() as NSString).appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
