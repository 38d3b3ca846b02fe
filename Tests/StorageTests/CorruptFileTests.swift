import Foundation
import Storage
import Testing

@Suite struct CorruptFileTests {
    /// Writes a small database with enough rows to span several pages, then closes it.
    private func makeDatabase(at path: String) throws {
        let db = try Database(path: path)
        try db.execute("CREATE TABLE t (x TEXT)")
        try db.transaction { db in
            for index in 0..<500 {
                try db.execute("INSERT INTO t VALUES (?)", String(repeating: "x", count: 50) + "\(index)")
            }
        }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try db.close()
    }

    @Test func damagedHeader_failsAtOpenAsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.sqlite")
        try makeDatabase(at: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 0x41, count: 16))
        try handle.close()

        let error = #expect(throws: StorageError.self) { try Database(path: path) }

        #expect(error?.code == .notADatabase)
        #expect(error?.message.hasPrefix("'\(path)' is not a usable SQLite database") == true)
    }

    @Test func damagedPages_areReportedByQuickCheck() throws {
        // Given a database whose second page is overwritten with garbage
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.sqlite")
        try makeDatabase(at: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4096))
        try handle.close()

        // When it is opened and checked
        let db = try Database(path: path)
        let findings: [String]
        do {
            findings = try db.quickCheck()
        } catch {
            // SQLite may also refuse to read the damaged page at all.
            #expect(error.code == .corrupt)
            return
        }

        // Then the damage is reported
        #expect(!findings.isEmpty)
    }

    @Test func soundDatabase_passesQuickCheck() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.sqlite")
        try makeDatabase(at: path)

        #expect(try Database(path: path).quickCheck() == [])
    }
}
