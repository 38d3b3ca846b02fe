import Foundation
import Storage
import Testing

@Suite struct StatementTests {
    @Test func preparedStatement_runsManyTimesInOneTransaction() throws {
        let db = try Database(.inMemory)
        try db.execute("CREATE TABLE journal (token TEXT PRIMARY KEY, body BLOB NOT NULL)")

        try db.transaction { db in
            let insert = try db.prepare("INSERT INTO journal (token, body) VALUES (?, ?)")
            #expect(insert.parameterCount == 2)
            for index in 0..<100 { try insert.execute("t\(index)", [UInt8(index)]) }
        }

        #expect(try db.query("SELECT count(*) FROM journal").first?.int(0) == 100)
    }

    @Test func sameSQLInsideItsOwnQuery_getsASecondStatement() throws {
        // Given a query whose rows are read while the same SQL runs again
        let db = try Database(.inMemory)
        try db.execute("CREATE TABLE t (x INTEGER)")
        for value in 1...3 { try db.execute("INSERT INTO t VALUES (?)", value) }

        // When the nested run uses the same SQL text
        let pairs = try db.withConnection { db in
            try db.query("SELECT x FROM t ORDER BY x") { outer in
                let x = try outer.int(0)
                let count = try db.query("SELECT x FROM t ORDER BY x") { try $0.int(0) }.count
                return [x, count]
            }
        }

        // Then both run to completion
        #expect(pairs == [[1, 3], [2, 3], [3, 3]])
    }

    @Test(arguments: [0, 2])
    func smallOrDisabledStatementCache_stillRunsEveryStatement(capacity: Int) throws {
        let db = try Database(.inMemory, options: .init(statementCacheCapacity: capacity))
        try db.execute("CREATE TABLE t (x INTEGER)")

        for round in 0..<3 {
            for value in 0..<5 { try db.execute("INSERT INTO t VALUES (\(value) + ?)", round * 10) }
        }

        // Three rounds of 0...4, plus 0, 10 and 20 added to each of the five values.
        #expect(
            try db.query("SELECT count(*), sum(x) FROM t").first?.values == [.integer(15), .integer(180)])
    }

    @Test func severalStatementsInExecute_isRefusedButRunAsAScript() throws {
        let db = try Database(.inMemory)
        let script = "CREATE TABLE a (x); CREATE TABLE b (y); -- done"

        let error = #expect(throws: StorageError.self) { try db.execute(script) }
        try db.executeScript(script)

        #expect(error?.code == .misuse)
        #expect(
            error?.message
                == "the SQL holds more than one statement; run one at a time, or use executeScript(_:) for a script"
        )
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            try $0.string(0)
        }
        #expect(tables == ["a", "b"])
    }

    @Test func trailingCommentAfterOneStatement_isAccepted() throws {
        let db = try Database(.inMemory)

        try db.execute("CREATE TABLE a (x); -- the media table")

        #expect(try db.query("SELECT count(*) FROM a").first?.int(0) == 0)
    }

    @Test func syntaxError_carriesSQLitesMessageAndTheSQL() throws {
        let db = try Database(.inMemory)

        let error = #expect(throws: StorageError.self) { try db.execute("SELEC 1") }

        #expect(error?.code == .error)
        #expect(error?.message == #"near "SELEC": syntax error"#)
        #expect(
            error?.description == """
                SQLITE_ERROR (1): near "SELEC": syntax error
                  SQL: SELEC 1
                  database: :memory:
                """)
    }

    @Test func failingScript_namesTheFailingStatement() throws {
        let db = try Database(.inMemory)

        let error = #expect(throws: StorageError.self) {
            try db.executeScript("CREATE TABLE a (x); INSERT INTO missing VALUES (1);")
        }

        #expect(error?.message == "no such table: missing")
        #expect(error?.sql == " INSERT INTO missing VALUES (1);")
    }
}

@Suite struct SQLBinderTests {
    @Test func binder_bindsInParameterOrder() throws {
        let db = try Database(.inMemory)
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT, c BLOB, d REAL)")
        let maybe: Double? = nil

        try db.transaction { db in
            let insert = try db.prepare("INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)")
            try insert.execute { values in
                try values.bind(1)
                try values.bind("one")
                try values.bind([UInt8]([1]))
                try values.bind(maybe)
                #expect(values.count == 4)
            }
            try db.execute("INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)") { values in
                try values.bind(Int64(2))
                try values.bindNull()
                try values.bind(SQLValue.blob(.init([2])))
                try values.bind(2.5)
            }
        }

        #expect(
            try db.query("SELECT a, b, c, d FROM t ORDER BY a").map(\.values) == [
                [.integer(1), .text("one"), .blob(.init([1])), .null],
                [.integer(2), .null, .blob(.init([2])), .real(2.5)],
            ])
    }

    @Test func binderWithTooFewValues_isARangeErrorAndRunsNothing() throws {
        let db = try Database(.inMemory)
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT)")

        let error = #expect(throws: StorageError.self) {
            try db.execute("INSERT INTO t (a, b) VALUES (?, ?)") { values in try values.bind(1) }
        }

        #expect(error?.message == "the statement has 2 parameter(s) but 1 value(s) were bound")
        #expect(try db.query("SELECT count(*) FROM t").first?.int(0) == 0)
    }

    @Test func alternatingStatements_withATinyCache_eachRunTheirOwnSQL() throws {
        // Given a cache of one statement and two statements run in turn
        let db = try Database(.inMemory, options: .init(statementCacheCapacity: 1))
        try db.execute("CREATE TABLE a (x INTEGER)")
        try db.execute("CREATE TABLE b (x INTEGER)")

        // When they alternate (each run evicts the other from the cache)
        for value in 0..<10 {
            try db.execute("INSERT INTO a VALUES (?)", value)
            try db.execute("INSERT INTO b VALUES (?)", value * 2)
        }

        // Then each table got exactly its own rows
        #expect(try db.query("SELECT sum(x) FROM a").first?.int(0) == 45)
        #expect(try db.query("SELECT sum(x) FROM b").first?.int(0) == 90)
    }
}
