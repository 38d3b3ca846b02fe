import Foundation

extension AppDatabaseService {
    /// SQLite's file header: every database file of one page or more starts with these 16 bytes.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// What is wrong with the file at `path` that can be seen without SQLite: nil when it is
    /// missing (a new database) or starts with SQLite's header.
    ///
    /// A 0-byte file is damaged here although SQLite would take it as a new, empty database: the
    /// app never leaves its database empty (migrations write at once), so a 0-byte file is one
    /// that was truncated, and anything its `-wal` holds must be kept, not silently reset.
    ///
    /// - Complexity: O(1): reads at most 16 bytes.
    static func damageVisibleInHeader(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)).map(Array.init) ?? []
        if head.isEmpty { return "it is empty (0 bytes)" }
        if head != sqliteHeader { return "it does not start with SQLite's file header" }
        return nil
    }

    /// Whether `error`, thrown while opening or checking a file, means the file is damaged (as
    /// opposed to locked by another connection, a newer schema, a full disk or a permission).
    static func isDamage(_ error: StorageError) -> Bool {
        error.code == .corrupt || error.code == .notADatabase
    }

    /// Renames `path` and its `-wal` and `-shm` (those present) to
    /// `<path>.corrupt-<UTC time>` and that name's `-wal` and `-shm`, so SQLite still finds the
    /// kept file's write-ahead log beside it. Returns the kept path.
    ///
    /// - Throws: `AppDatabaseError` when the file cannot be renamed.
    static func setAside(_ path: String, now: Date) throws(AppDatabaseError) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        var kept = "\(path).corrupt-\(stamp)"
        var suffix = 2
        let manager = FileManager.default
        while manager.fileExists(atPath: kept) || manager.fileExists(atPath: kept + "-wal") {
            kept = "\(path).corrupt-\(stamp)-\(suffix)"
            suffix += 1
        }
        for extensionSuffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + extensionSuffix) {
            do {
                try manager.moveItem(atPath: path + extensionSuffix, toPath: kept + extensionSuffix)
            } catch {
                throw AppDatabaseError(
                    message: "the app database '\(path)' is damaged and cannot be kept aside as '\(kept)': "
                        + "\(FileSystemReason.describe(error, at: path + extensionSuffix)); move it elsewhere "
                        + "yourself (do not delete it: it may hold changes not yet sent) and start again")
            }
        }
        return kept
    }

    /// What the kept file at `path` still holds, read with `readContents` on a read-only
    /// connection; nil when it cannot be read.
    static func contents(
        ofKept path: String, readContents: (@Sendable (Database) throws -> String)?
    ) -> String? {
        guard let readContents else { return nil }
        guard damageVisibleInHeader(at: path) == nil else { return nil }
        do {
            let database = try Database(path: path, options: Database.Options(readOnly: true))
            defer { try? database.close() }
            return try readContents(database)
        } catch {
            return nil
        }
    }
}
