import Composition
import Foundation
import Synchronization

/// The `storage.database` service: opens the app's own database (`fileName` in
/// `AppDataDirectoryKey`'s directory), applies the migrations it was made with, and closes it on
/// stop. The modules that keep tables in it contribute the migrations; the catalog that lists
/// the service puts them in order.
///
/// A damaged file is never used and never deleted: when the file is empty, does not start with
/// SQLite's header, fails to open as a database, or fails `PRAGMA quick_check`, it is kept aside
/// (``SetAsideDatabase``, `app.sqlite.corrupt-<time>` with its `-wal` and `-shm`) and a fresh
/// database is made; ``setAside`` tells the launcher, which tells the person. A file locked by
/// another connection, or written by a newer build, is not damaged: those fail the start.
///
/// Reads: `AppDataDirectoryKey`. Depends on no service.
public final class AppDatabaseService: Service {
    /// The service's id, `storage.database`.
    public static let id = "storage.database"

    private let fileName: String
    private let migrations: [Migration]
    private let readContents: (@Sendable (Database) throws -> String)?
    private let state = Mutex<(database: Database?, setAside: SetAsideDatabase?)>((nil, nil))

    /// Makes the service; it opens `fileName` and applies `migrations` when started.
    ///
    /// - Parameters:
    ///   - fileName: the database file's name in the app's data directory (`app.sqlite`).
    ///   - migrations: the schema history, applied in order.
    ///   - readContents: says what a damaged file kept aside still holds that matters to the person
    ///     (`holds 3 unsent changes, not sent: keep the file`), reading it on a read-only
    ///     connection; it may throw, as reads of a damaged file do.
    public init(
        fileName: String, migrations: [Migration],
        readContents: (@Sendable (Database) throws -> String)? = nil
    ) {
        self.fileName = fileName
        self.migrations = migrations
        self.readContents = readContents
    }

    /// Opens (creating the directory and file if needed) `fileName` in `directory` and applies
    /// `migrations`.
    ///
    /// - Throws: `AppDatabaseError` when the directory cannot be made; `StorageError` when the
    ///   file cannot be opened or migrated.
    public static func open(
        directory: String, fileName: String, migrations: [Migration],
        options: Database.Options = Database.Options()
    ) throws -> Database {
        var isDirectory: ObjCBool = false
        do {
            if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
                || !isDirectory.boolValue
            {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        } catch {
            throw AppDatabaseError(
                message:
                    "cannot create the app data directory '\(directory)': "
                    + "\(FileSystemReason.describe(error, at: directory)); pass a --data-dir you can write to"
            )
        }
        let database = try Database(
            path: (directory as NSString).appendingPathComponent(fileName), options: options)
        try migrate(database, migrations)
        return database
    }

    /// Opens, checks and migrates `fileName` in `directory`; a damaged file is kept aside first
    /// and a fresh database made (see the type's summary).
    ///
    /// - Returns: the database, and the damaged file kept aside, if there was one.
    /// - Throws: `AppDatabaseError` when the directory cannot be made or a damaged file cannot be
    ///   kept aside; `StorageError` when the file cannot be opened or migrated for another reason
    ///   (locked, written by a newer build, no space).
    /// - Complexity: O(n) in the size of the file (`PRAGMA quick_check` reads every page).
    public static func openSettingAsideDamage(
        directory: String, fileName: String, migrations: [Migration],
        readContents: (@Sendable (Database) throws -> String)? = nil, now: Date = Date()
    ) throws -> (database: Database, setAside: SetAsideDatabase?) {
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            return (try open(directory: directory, fileName: fileName, migrations: migrations), nil)
        }
        var damage = damageVisibleInHeader(at: path)
        let hadLog = FileManager.default.fileExists(atPath: path + "-wal")
        if damage == nil {
            do {
                let database = try Database(path: path)
                do {
                    let findings = try database.quickCheck()
                    if findings.isEmpty {
                        try migrate(database, migrations)
                        return (database, nil)
                    }
                    let lines = findings.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
                    damage = "SQLite's check found damage: " + lines.prefix(3).joined(separator: "; ")
                } catch let error as StorageError where isDamage(error) {
                    damage = "SQLite cannot read it: \(error.message)"
                }
                try? database.close()
            } catch let error as StorageError where isDamage(error) {
                damage = "SQLite cannot read it: \(error.message)"
            }
        }
        guard let damage else {
            return (try open(directory: directory, fileName: fileName, migrations: migrations), nil)
        }
        let kept = try setAside(path, now: now)
        let contents =
            damage.hasPrefix("it is empty") && !hadLog
            ? "held nothing (it was empty)" : Self.contents(ofKept: kept, readContents: readContents)
        let database = try open(directory: directory, fileName: fileName, migrations: migrations)
        return (database, SetAsideDatabase(path: path, keptPath: kept, damage: damage, contents: contents))
    }

    /// Migrates the app's database; one a newer build wrote is refused, and said to be kept: it
    /// may hold changes not yet sent, which only that build (or a newer one) can send.
    ///
    /// - Throws: `AppDatabaseError` for a newer schema; `StorageError` otherwise.
    static func migrate(_ database: Database, _ migrations: [Migration]) throws {
        let version = try database.userVersion()
        guard version <= migrations.count else {
            try? database.close()
            throw AppDatabaseError(
                message:
                    "the app database '\(database.path)' was written by a newer build of the app (schema "
                    + "version \(version); this build knows up to \(migrations.count)), and may hold changes not "
                    + "yet sent: it is left as it is. Run the newer build to send them, or choose another "
                    + "--data-dir to use this build")
        }
        try database.migrate(migrations)
    }

    /// Opens, checks and migrates the database.
    public func start(_ context: ServiceContext) async throws {
        let opened = try Self.openSettingAsideDamage(
            directory: context.values[AppDataDirectoryKey.self], fileName: fileName, migrations: migrations,
            readContents: readContents)
        state.withLock { $0 = (opened.database, opened.setAside) }
    }

    /// The damaged file this start kept aside, if any: say so to the person.
    public var setAside: SetAsideDatabase? { state.withLock { $0.setAside } }

    /// Closes the database.
    public func stop() async {
        let database = state.withLock { state -> Database? in
            defer { state.database = nil }
            return state.database
        }
        try? database?.close()
    }

    /// The open database.
    ///
    /// - Throws: `AppDatabaseError` before start or after stop.
    public var database: Database {
        get throws(AppDatabaseError) {
            guard let database = state.withLock({ $0.database }) else {
                throw AppDatabaseError(
                    message: "service '\(Self.id)' is not running; depend on it so it starts first")
            }
            return database
        }
    }
}

/// The app database could not be prepared.
public struct AppDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    public let message: String

    /// The message.
    public var description: String { message }

    /// An error saying `message`.
    public init(message: String) { self.message = message }
}

extension ServiceKey where S == AppDatabaseService {
    /// The app database service, `storage.database`.
    public static var appDatabase: Self { .init(AppDatabaseService.id) }
}
