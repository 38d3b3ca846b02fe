import Foundation
import Storage

/// The app's own SQLite database (`app.sqlite` in the app's data directory): the feed cache and
/// the mutation journal. One ordered list of migrations covers every table in it.
public enum AppDatabase {
    /// The file's name inside the app's data directory.
    public static let fileName = "app.sqlite"

    /// The schema history. Append new steps; never edit or renumber shipped ones.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "feed cache", sql: FeedCacheSchema.version1),
        Migration(version: 2, name: "mutation journal", sql: MutationJournalSchema.version2),
    ]

    /// Opens (creating the directory and file if needed) and migrates the app database in
    /// `directory`.
    ///
    /// - Throws: `AppDatabaseError` when the directory cannot be made; `StorageError` when the
    ///   file cannot be opened or migrated.
    public static func open(directory: String, options: Database.Options = Database.Options()) throws
        -> Database
    {
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
                    "cannot create the app data directory '\(directory)': \(error.localizedDescription); "
                    + "pass a writable --data-dir")
        }
        let database = try Database(
            path: (directory as NSString).appendingPathComponent(fileName), options: options)
        try database.migrate(migrations)
        return database
    }
}

/// The app database could not be prepared.
public struct AppDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    public let message: String

    /// The message.
    public var description: String { message }
}
