import Composition
import Foundation
import Synchronization

/// The `storage.database` service: opens the app's own database (`fileName` in
/// `AppDataDirectoryKey`'s directory), applies the migrations it was made with, and closes it on
/// stop. The modules that keep tables in it contribute the migrations; the catalog that lists
/// the service puts them in order.
///
/// Reads: `AppDataDirectoryKey`. Depends on no service.
public final class AppDatabaseService: Service {
    /// The service's id, `storage.database`.
    public static let id = "storage.database"

    private let fileName: String
    private let migrations: [Migration]
    private let state = Mutex<Database?>(nil)

    /// Makes the service; it opens `fileName` and applies `migrations` when started.
    public init(fileName: String, migrations: [Migration]) {
        self.fileName = fileName
        self.migrations = migrations
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
        try database.migrate(migrations)
        return database
    }

    /// Opens and migrates the database.
    public func start(_ context: ServiceContext) async throws {
        let database = try Self.open(
            directory: context.values[AppDataDirectoryKey.self], fileName: fileName, migrations: migrations)
        state.withLock { $0 = database }
    }

    /// Closes the database.
    public func stop() async {
        let database = state.withLock { state -> Database? in
            defer { state = nil }
            return state
        }
        try? database?.close()
    }

    /// The open database.
    ///
    /// - Throws: `AppDatabaseError` before start or after stop.
    public var database: Database {
        get throws(AppDatabaseError) {
            guard let database = state.withLock({ $0 }) else {
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
