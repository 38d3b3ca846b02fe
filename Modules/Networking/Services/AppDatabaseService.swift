import Composition
import Storage
import Synchronization

/// The `storage.database` service: opens and migrates the app's own database
/// (`AppDatabase.fileName` in `AppDataDirectoryKey`'s directory) and closes it on stop.
///
/// Reads: `AppDataDirectoryKey`. Depends on no service.
public final class AppDatabaseService: Service {
    private let state = Mutex<Database?>(nil)

    /// Makes the service; it opens the database when started.
    public init() {}

    /// Opens and migrates the database.
    public func start(_ context: ServiceContext) async throws {
        let database = try AppDatabase.open(directory: context.values[AppDataDirectoryKey.self])
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
                    message: "service 'storage.database' is not running; depend on it so it starts first")
            }
            return database
        }
    }
}
