import FeedCaching
import Mutations
import Storage

/// The app's own SQLite database (`app.sqlite` in the app's data directory): the feed cache and
/// the mutation journal. One ordered list of migrations covers every table in it; each module
/// that keeps tables there contributes its steps, and this list puts them in order.
public enum AppDatabase {
    /// The file's name inside the app's data directory.
    public static let fileName = "app.sqlite"

    /// The schema history. Append new steps; never edit or renumber shipped ones.
    public static let migrations: [Migration] = [
        FeedCacheSchema.migration(version: 1),
        MutationJournalSchema.migration(version: 2),
        MutationJournalSchema.accountMigration(version: 3),
        FeedCacheSchema.reconcileMigration(version: 4),
        FeedCacheSchema.layoutMigration(version: 5),
        FeedCacheSchema.etagMigration(version: 6),
        FeedCacheSchema.layoutSourceMigration(version: 7),
    ]

    /// What a damaged app database kept aside still holds that matters to the person: how many
    /// changes in its journal the server never confirmed. Reads `database` only; throws when the
    /// journal cannot be read.
    @Sendable
    public static func describeUnsentChanges(_ database: Database) throws -> String {
        let count = try MutationJournalSchema.unconfirmedCount(database)
        switch count {
        case 0: return "holds no unsent changes"
        case 1: return "holds 1 unsent change, not sent: keep the file"
        default: return "holds \(count) unsent changes, not sent: keep the file"
        }
    }

    /// Opens (creating the directory and file if needed) and migrates the app database in
    /// `directory`.
    ///
    /// - Throws: `AppDatabaseError` when the directory cannot be made; `StorageError` when the
    ///   file cannot be opened or migrated.
    public static func open(directory: String, options: Database.Options = Database.Options()) throws
        -> Database
    {
        try AppDatabaseService.open(
            directory: directory, fileName: fileName, migrations: migrations, options: options)
    }
}
