import Storage
import Testing

@Suite struct ErrorTests {
    private func database() throws -> Database {
        let db = try Database(.inMemory)
        try db.executeScript(
            """
            CREATE TABLE users (id INTEGER PRIMARY KEY, handle TEXT NOT NULL UNIQUE);
            CREATE TABLE posts (id INTEGER PRIMARY KEY, author INTEGER NOT NULL REFERENCES users(id));
            INSERT INTO users (id, handle) VALUES (1, 'ada');
            """)
        return db
    }

    @Test(arguments: [
        ("INSERT INTO users (handle) VALUES ('ada')", Int32(2067), "UNIQUE constraint failed: users.handle"),
        ("INSERT INTO users (id, handle) VALUES (1, 'bob')", 1555, "UNIQUE constraint failed: users.id"),
        ("INSERT INTO users (handle) VALUES (NULL)", 1299, "NOT NULL constraint failed: users.handle"),
        ("INSERT INTO posts (author) VALUES (99)", 787, "FOREIGN KEY constraint failed"),
    ])
    func constraintViolation_carriesItsExtendedCode(sql: String, extendedCode: Int32, message: String) throws
    {
        let db = try database()

        let error = #expect(throws: StorageError.self) { try db.execute(sql) }

        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == extendedCode)
        #expect(error?.message == message)
        #expect(error?.sql == sql)
    }

    @Test func constraintError_readsWell() throws {
        let db = try database()

        let error = #expect(throws: StorageError.self) {
            try db.execute("INSERT INTO users (handle) VALUES (?)", "ada")
        }

        #expect(
            error?.description == """
                SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: users.handle
                  SQL: INSERT INTO users (handle) VALUES (?)
                  database: :memory:
                  hint: the row breaks a UNIQUE, PRIMARY KEY, NOT NULL, CHECK or FOREIGN KEY constraint; check \
                the values bound, or use INSERT ... ON CONFLICT to update instead
                """)
    }

    @Test func writeWhileAnotherConnectionHoldsTheLock_failsBusyAfterTheTimeout() throws {
        // Given two connections to one file, the second with a short busy timeout
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let first = try Database(path: path)
        let second = try Database(path: path, options: .init(busyTimeout: .milliseconds(20)))
        try first.execute("CREATE TABLE t (x INTEGER)")

        // When the second writes while the first holds a write transaction
        let error = try first.transaction(.immediate) { db in
            try db.execute("INSERT INTO t VALUES (1)")
            return #expect(throws: StorageError.self) { try second.execute("INSERT INTO t VALUES (2)") }
        }

        // Then it fails with SQLITE_BUSY, and succeeds once the lock is released
        #expect(error?.code == .busy)
        #expect(error?.message == "database is locked")
        #expect(error?.hint?.contains("busyTimeout") == true)
        try second.execute("INSERT INTO t VALUES (2)")
        #expect(try second.query("SELECT count(*) FROM t").first?.int(0) == 2)
    }

    @Test func readerOnAnotherConnection_isNotBlockedByAWriter() throws {
        // Given a writer in the middle of a transaction (WAL mode)
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        let writer = try Database(path: path)
        let reader = try Database(path: path, options: .init(busyTimeout: .milliseconds(20)))
        try writer.execute("CREATE TABLE t (x INTEGER)")
        try writer.execute("INSERT INTO t VALUES (1)")

        // When the reader reads during the write, then it sees the last committed state
        let seenDuringWrite = try writer.transaction { db in
            try db.execute("INSERT INTO t VALUES (2)")
            return try reader.query("SELECT count(*) FROM t").first?.int(0)
        }
        #expect(seenDuringWrite == 1)
        #expect(try reader.query("SELECT count(*) FROM t").first?.int(0) == 2)
    }

    @Test(arguments: [
        (StorageError.Code.busy, "SQLITE_BUSY"), (.notADatabase, "SQLITE_NOTADB"),
        (.constraint, "SQLITE_CONSTRAINT"),
        (StorageError.Code(rawValue: 99), "SQLITE_99"),
    ])
    func code_isNamedLikeSQLite(code: StorageError.Code, name: String) {
        #expect(code.name == name)
    }
}
