import Storage
import Testing

@Suite struct MigrationTests {
    static let migrations = [
        Migration(
            version: 1, name: "create media",
            sql: "CREATE TABLE media (id TEXT PRIMARY KEY, text TEXT NOT NULL)"),
        Migration(
            version: 2, name: "add likes",
            sql: "ALTER TABLE media ADD COLUMN likes INTEGER NOT NULL DEFAULT 0"),
    ]

    @Test func freshDatabase_getsEveryMigrationInOrder() throws {
        let db = try Database(.inMemory)

        let report = try db.migrate(Self.migrations)

        #expect(report == Migration.Report(previousVersion: 0, currentVersion: 2, applied: [1, 2]))
        #expect(try db.userVersion() == 2)
        try db.execute("INSERT INTO media (id, text, likes) VALUES ('m1', 'hi', 3)")
    }

    @Test func migratingAgain_appliesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        try Database(path: path).migrate(Self.migrations)

        let report = try Database(path: path).migrate(Self.migrations)

        #expect(report.applied == [])
        #expect(report.previousVersion == 2)
    }

    @Test func newMigration_runsAloneAndKeepsTheData() throws {
        // Given a database at version 2 with a row
        let db = try Database(.inMemory)
        try db.migrate(Self.migrations)
        try db.execute("INSERT INTO media (id, text, likes) VALUES ('m1', 'hi', 3)")

        // When a build adds migration 3, written in Swift
        let third = Migration(version: 3, name: "copy texts") { db in
            try db.execute("CREATE TABLE texts (id TEXT PRIMARY KEY, body TEXT)")
            try db.execute("INSERT INTO texts SELECT id, text FROM media")
        }
        let report = try db.migrate(Self.migrations + [third])

        // Then only it runs, and the old data is still there
        #expect(report.applied == [3])
        #expect(try db.query("SELECT likes FROM media").first?.int(0) == 3)
        #expect(try db.query("SELECT body FROM texts").first?.string(0) == "hi")
    }

    @Test func failingMigration_rollsBackAndNamesTheStep() throws {
        let db = try Database(.inMemory)
        let broken = Migration(
            version: 3, name: "broken", sql: "CREATE TABLE ok (x); CREATE TABLE media (x);")

        let error = #expect(throws: StorageError.self) { try db.migrate(Self.migrations + [broken]) }

        #expect(
            error?.message
                == "migration 3 ('broken') failed and was rolled back; the schema stays at version 2: "
                + "table media already exists")
        #expect(try db.userVersion() == 2)
        #expect(try db.query("SELECT name FROM sqlite_master WHERE name = 'ok'").isEmpty)
    }

    @Test func gapInVersions_isRefusedBeforeAnythingRuns() throws {
        let db = try Database(.inMemory)
        let skipping = [Self.migrations[0], Migration(version: 3, name: "three", sql: "CREATE TABLE x (y)")]

        let error = #expect(throws: StorageError.self) { try db.migrate(skipping) }

        #expect(error?.code == .schema)
        #expect(
            error?.message
                == "migration 'three' has version 3 but should be 2: number migrations 1, 2, 3, … in order with "
                + "no gaps, and never renumber a shipped one")
        #expect(try db.userVersion() == 0)
    }

    @Test func databaseFromANewerBuild_isRefused() throws {
        let db = try Database(.inMemory)
        try db.execute("PRAGMA user_version = 7")

        let error = #expect(throws: StorageError.self) { try db.migrate(Self.migrations) }

        #expect(error?.code == .schema)
        #expect(
            error?.message.hasPrefix(
                "the database is at schema version 7, newer than this build's latest migration 2") == true)
    }
}
