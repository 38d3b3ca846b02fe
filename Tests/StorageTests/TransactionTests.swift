import Storage
import Testing

private struct Abort: Error {}

@Suite struct TransactionTests {
    private func database() throws -> Database {
        let db = try Database(.inMemory)
        try db.execute("CREATE TABLE t (x INTEGER)")
        return db
    }

    private func values(_ db: Database) throws -> [Int] {
        try db.query("SELECT x FROM t ORDER BY x") { try $0.int(0) }
    }

    @Test func transaction_commitsWhenTheBodyReturns() throws {
        let db = try database()

        let result = try db.transaction { db in
            try db.execute("INSERT INTO t VALUES (1)")
            try db.execute("INSERT INTO t VALUES (2)")
            return "done"
        }

        #expect(result == "done")
        #expect(try values(db) == [1, 2])
    }

    @Test func transaction_rollsBackWhenTheBodyThrows() throws {
        let db = try database()

        #expect(throws: Abort.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }

        #expect(try values(db) == [])
        #expect(try db.withConnection { $0.isInTransaction } == false)
    }

    @Test func nestedTransaction_rollsBackToItsSavepointOnly() throws {
        let db = try database()

        try db.transaction { db in
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Abort.self) {
                try db.transaction { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Abort()
                }
            }
            try db.transaction { db in try db.execute("INSERT INTO t VALUES (3)") }
        }

        #expect(try values(db) == [1, 3])
    }

    @Test func outerThrow_rollsBackCommittedSavepointsToo() throws {
        let db = try database()

        #expect(throws: Abort.self) {
            try db.transaction { db in
                try db.transaction { db in try db.execute("INSERT INTO t VALUES (1)") }
                throw Abort()
            }
        }

        #expect(try values(db) == [])
    }

    @Test func durableCommit_raisesSynchronousForThatTransactionOnly() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("journal.sqlite"), options: .init(synchronous: .normal))

        let inside = try db.transaction(synchronous: .full) { db in
            try db.execute("CREATE TABLE j (x)")
            return try db.query("PRAGMA synchronous").first?.int(0)
        }

        #expect(inside == 2)
        #expect(try db.query("PRAGMA synchronous").first?.int(0) == 1)

        // And the next durable commit is raised again: the connection remembers the level it
        // went back to, not the one it had raised
        let again = try db.transaction(synchronous: .full) { db in
            try db.execute("INSERT INTO j VALUES (1)")
            return try db.query("PRAGMA synchronous").first?.int(0)
        }
        #expect(again == 2)
        #expect(try db.query("PRAGMA synchronous").first?.int(0) == 1)
    }

    @Test func synchronousOnANestedTransaction_isRefused() throws {
        let db = try database()

        let error = #expect(throws: StorageError.self) {
            try db.transaction { db in try db.transaction(synchronous: .full) { _ in } }
        }

        #expect(error?.code == .misuse)
    }

    @Test func callingTheDatabaseInsideItsOwnTransaction_throwsInsteadOfDeadlocking() throws {
        let db = try database()

        let error = #expect(throws: StorageError.self) {
            try db.transaction { _ in try db.execute("INSERT INTO t VALUES (1)") }
        }

        #expect(error?.code == .misuse)
        #expect(
            error?.message
                == "the database was called from inside its own withConnection/transaction closure, which would "
                + "deadlock; use the Connection the closure receives")
        #expect(try values(db) == [])
    }

    @Test func manyTasks_shareOneDatabaseSafely() async throws {
        let db = try database()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        try db.transaction { db in
                            try db.execute("INSERT INTO t VALUES (?)", task * 100 + index)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(
            try db.query("SELECT count(*), count(DISTINCT x) FROM t").first?.values == [
                .integer(400), .integer(400),
            ])
    }
}
