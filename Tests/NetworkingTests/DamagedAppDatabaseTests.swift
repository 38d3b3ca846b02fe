import Foundation
import Networking
import Storage
import Testing

/// A damaged `app.sqlite` is kept aside with its `-wal` and `-shm`, never deleted, and the app
/// starts on a fresh database; a sound one, with changes not yet sent, is never moved.
@Suite struct DamagedAppDatabaseTests {
    enum Damage: String, CaseIterable, Sendable {
        case empty, randomBytes, garbagePage
    }

    /// A sound app database holding `unsent` journal rows not yet confirmed, one confirmed, and
    /// a cache table big enough to span many pages after them.
    private static func makeDatabase(in directory: String, unsent: Int) throws {
        let database = try AppDatabase.open(directory: directory)
        try database.transaction { db in
            for index in 0..<(unsent + 1) {
                try db.execute(
                    "INSERT INTO mutation_journal (token, lane, kind, payload, state, created_at) "
                        + "VALUES (?, 'feed', 'like', x'00', ?, 0)",
                    "token-\(index)", index < unsent ? 0 : 3)
            }
            try db.execute("CREATE TABLE filler (x TEXT)")
            for index in 0..<800 {
                try db.execute(
                    "INSERT INTO filler VALUES (?)", String(repeating: "y", count: 60) + "\(index)")
            }
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try database.close()
    }

    private static func damage(_ path: String, _ damage: Damage) throws {
        switch damage {
        case .empty:
            try Data().write(to: URL(fileURLWithPath: path))
        case .randomBytes:
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        case .garbagePage:
            // The last page: filler rows, far from the journal's first pages.
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: UInt64(size - 4096))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
            try handle.close()
        }
    }

    private static func open(_ directory: String) throws -> (database: Database, setAside: SetAsideDatabase?)
    {
        try AppDatabaseService.openSettingAsideDamage(
            directory: directory, fileName: AppDatabase.fileName, migrations: AppDatabase.migrations,
            readContents: AppDatabase.describeUnsentChanges,
            now: Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test(arguments: Damage.allCases)
    func damagedFile_isKeptAside_saidSo_andAFreshDatabaseWorks(damage: Damage) throws {
        // Given an app database with 2 unsent changes, then damaged
        let directory = try TemporaryFolder()
        try Self.makeDatabase(in: directory.path, unsent: 2)
        let path = directory.path + "/app.sqlite"
        try Self.damage(path, damage)
        let damagedBytes = try Data(contentsOf: URL(fileURLWithPath: path))

        // When it is opened
        let (database, setAside) = try Self.open(directory.path)
        defer { try? database.close() }

        // Then the damaged bytes are kept, byte for byte, under a dated name beside it
        let kept = try #require(setAside)
        let keptPath = path + ".corrupt-20261118T110640Z"
        #expect(kept.keptPath == keptPath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptPath)) == damagedBytes)
        // And the message says what happened, where the old file is, and what it still holds
        let expectedDamage: String
        let expectedContents: String?
        switch damage {
        case .empty:
            expectedDamage = "it is empty (0 bytes)"
            expectedContents = "held nothing (it was empty)"
        case .randomBytes:
            expectedDamage = "it does not start with SQLite's file header"
            expectedContents = nil
        case .garbagePage:
            expectedDamage = kept.damage
            expectedContents = "holds 2 unsent changes, not sent: keep the file"
            #expect(
                kept.damage.hasPrefix("SQLite's check found damage: ")
                    || kept.damage.hasPrefix("SQLite cannot read it: "))
        }
        #expect(kept.damage == expectedDamage)
        #expect(kept.contents == expectedContents)
        #expect(kept.description.contains("kept as '\(keptPath)'"))
        #expect(!kept.description.lowercased().contains("delete"))
        #expect(
            kept.summary == "database damaged; kept as app.sqlite.corrupt-20261118T110640Z, started fresh")
        // And the fresh database works: sound, migrated, empty journal
        #expect(try database.quickCheck() == [])
        #expect(try database.userVersion() == AppDatabase.migrations.count)
        #expect(try AppDatabase.describeUnsentChanges(database) == "holds no unsent changes")
    }

    @Test func damagedFile_keepsItsWriteAheadLogBesideIt() throws {
        let directory = try TemporaryFolder()
        let path = directory.path + "/app.sqlite"
        try Data("not a database at all, but long enough to be read".utf8).write(
            to: URL(fileURLWithPath: path))
        try Data("wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        try Data("shm".utf8).write(to: URL(fileURLWithPath: path + "-shm"))

        let (database, setAside) = try Self.open(directory.path)
        try database.close()

        let kept = try #require(setAside).keptPath
        #expect(try String(contentsOfFile: kept + "-wal", encoding: .utf8) == "wal")
        #expect(try String(contentsOfFile: kept + "-shm", encoding: .utf8) == "shm")
    }

    @Test func soundDatabaseWithUnsentChanges_isNeverMovedAside() throws {
        // Given a sound app database with 3 unsent changes
        let directory = try TemporaryFolder()
        try Self.makeDatabase(in: directory.path, unsent: 3)

        // When it is opened, twice
        for _ in 0..<2 {
            let (database, setAside) = try Self.open(directory.path)
            // Then it is used as it is: nothing kept aside, its changes still there
            #expect(setAside == nil)
            #expect(
                try AppDatabase.describeUnsentChanges(database)
                    == "holds 3 unsent changes, not sent: keep the file")
            try database.close()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.contains("corrupt") } == [])
    }

    @Test func databaseFromANewerBuild_isKept_andTheMessageNeverSaysDelete() throws {
        // Given a sound app database with 2 unsent changes that a newer build migrated further
        let directory = try TemporaryFolder()
        try Self.makeDatabase(in: directory.path, unsent: 2)
        let newer = try Database(path: directory.path + "/app.sqlite")
        try newer.execute("PRAGMA user_version = 99")
        try newer.close()

        // When this build opens it
        let error = #expect(throws: AppDatabaseError.self) { _ = try Self.open(directory.path) }

        // Then it refuses, says the file may hold unsent changes and how to send them, and never
        // tells the person to delete it; the file stays where it was, its changes in it
        let message = try #require(error?.message)
        #expect(message.contains("newer build"))
        #expect(message.contains("changes not yet sent"))
        #expect(!message.lowercased().contains("delete the"))
        #expect(!message.lowercased().contains("remove the"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.contains("corrupt") } == [])
        let reopened = try Database(path: directory.path + "/app.sqlite")
        #expect(
            try AppDatabase.describeUnsentChanges(reopened)
                == "holds 2 unsent changes, not sent: keep the file")
        try reopened.close()
    }

    @Test func lockedDatabase_isNotTakenForDamage() throws {
        // Given a sound app database another connection holds an exclusive lock on
        let directory = try TemporaryFolder()
        try Self.makeDatabase(in: directory.path, unsent: 1)
        let holder = try Database(path: directory.path + "/app.sqlite")
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        try holder.execute("BEGIN EXCLUSIVE")

        // When it is opened with a short wait
        #expect(throws: (any Error).self) {
            _ = try AppDatabaseService.openSettingAsideDamage(
                directory: directory.path, fileName: AppDatabase.fileName, migrations: AppDatabase.migrations,
                readContents: AppDatabase.describeUnsentChanges)
        }
        try holder.execute("COMMIT")
        try holder.close()

        // Then it failed without moving the file
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.contains("corrupt") } == [])
    }
}

/// A fresh directory, removed when released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("app-db-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
