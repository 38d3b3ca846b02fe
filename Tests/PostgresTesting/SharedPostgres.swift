import Foundation
import PostgresStorage
import Storage
import Synchronization

/// One throwaway PostgreSQL cluster per test process, started on first use and stopped when
/// the process exits; each test gets a database of its own in it.
///
/// A test that needs PostgreSQL and cannot start it fails with the reason (`PostgresCluster`
/// names the missing package): it never passes without running.
public enum SharedPostgres {
    private static let started: Result<PostgresCluster, PostgresCluster.StartError> = {
        do {
            let cluster = try PostgresCluster.start()
            running = cluster
            atexit { SharedPostgres.running?.stop() }
            return .success(cluster)
        } catch let error as PostgresCluster.StartError {
            return .failure(error)
        } catch {
            return .failure(PostgresCluster.StartError(description: "\(error)"))
        }
    }()

    nonisolated(unsafe) private static var running: PostgresCluster?
    private static let counter = Counter()

    /// The cluster (started on first use).
    public static func cluster() throws -> PostgresCluster { try started.get() }

    /// The URL of a new, empty database named after `name` and a number unique in this process.
    public static func newDatabaseURL(_ name: String) throws -> String {
        let cluster = try cluster()
        let safe = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return try cluster.createDatabase("t\(counter.next())_" + String(String(safe).prefix(40)))
    }

    /// The URL of a new database copied from the template `template`, which `make` fills (given
    /// its URL, once per process, on first use): a seeded database in a fraction of the time
    /// seeding takes. Copies are made one at a time (PostgreSQL copies a template only while
    /// nobody else uses it).
    public static func newDatabaseURL(copying template: String, _ make: (String) throws -> Void) throws
        -> String
    {
        let cluster = try cluster()
        return try templates.withLock { made in
            if !made.contains(template) {
                try make(try cluster.createDatabase(template))
                made.insert(template)
            }
            let name = "t\(counter.next())_from_\(template)"
            let admin = try Database.postgres(cluster.url())
            defer { try? admin.close() }
            try admin.executeScript("CREATE DATABASE \"\(name)\" TEMPLATE \"\(template)\"")
            return cluster.url(database: name)
        }
    }

    private static let templates = Mutex<Set<String>>([])

    /// A TCP port of 127.0.0.1 nobody listens on now.
    public static func freePort() throws -> Int { try PostgresCluster.freePort() }

    /// A new, empty database named after `name`.
    public static func newDatabase(_ name: String) throws -> Database {
        try Database.postgres(try newDatabaseURL(name))
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
