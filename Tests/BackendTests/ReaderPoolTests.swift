import Foundation
import Storage
import Testing
import Wire

@_spi(Testing) @testable import Backend

/// The backend's read-only connections: they refuse writes, and one read sees one snapshot even
/// when the writer commits in the middle of it.
@Suite struct ReaderPoolTests {
    @Test func aReader_refusesToWrite() throws {
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        defer { backend.close() }
        let pool = ReaderPool(path: backend.databasePath, capacity: 2)
        defer { pool.close() }
        #expect(throws: StorageError.self) {
            try pool.read { db in try db.execute("DELETE FROM likes") }
        }
    }

    @Test func oneRead_seesOneSnapshotWhileTheWriterCommits() throws {
        let backend = try BackendServer.seededCopy(clock: SystemClock())
        defer { backend.close() }
        let pool = ReaderPool(path: backend.databasePath, capacity: 1)
        defer { pool.close() }
        let writer = backend.database
        let count = "SELECT COUNT(*) FROM likes"

        // Given a read in progress, when the writer commits a like in the middle of it
        let (before, during) = try pool.read { db in
            let before = try db.queryFirst(count) { try $0.int(0) }
            try writer.execute(
                "INSERT INTO likes (user, post, created_at) SELECT 1, MAX(id), 0 FROM posts "
                    + "WHERE id NOT IN (SELECT post FROM likes WHERE user = 1)")
            let during = try db.queryFirst(count) { try $0.int(0) }
            return (before, during)
        }

        // Then the read's statements agree, and the next read sees the like
        #expect(before == during)
        let after = try pool.read { db in try db.queryFirst(count) { try $0.int(0) } }
        #expect(after == before.map { $0 + 1 })
    }
}
