import Foundation
import Storage
import Testing

@Suite struct BindingAndReadingTests {
    private func database() throws -> Database {
        let db = try Database(.inMemory)
        try db.execute(
            "CREATE TABLE v (i INTEGER, r REAL, t TEXT, b BLOB, flag INTEGER, maybe TEXT)")
        return db
    }

    @Test func everyBindableType_readsBackTyped() throws {
        // Given a row bound with statically typed values (the parameter-pack path)
        let db = try database()
        let bytes: [UInt8] = [0, 1, 2, 255]
        let none: String? = nil
        try db.execute(
            "INSERT INTO v (i, r, t, b, flag, maybe) VALUES (?, ?, ?, ?, ?, ?)",
            Int64.max, 2.5, "héllo 🎉", bytes, true, none)

        // When it is read back by index and by name
        let row = try #require(
            try db.queryFirst("SELECT i, r, t, b, flag, maybe FROM v") { row in
                (
                    try row.int64(0), try row.double("r"), try row.string(2), try row.bytes("b"),
                    try row.bool(4), try row.isNull("maybe"), try row.data(3)
                )
            })

        // Then each value comes back as bound
        #expect(row.0 == Int64.max)
        #expect(row.1 == 2.5)
        #expect(row.2 == "héllo 🎉")
        #expect(row.3 == bytes)
        #expect(row.4 == true)
        #expect(row.5 == true)
        #expect(row.6 == Data(bytes))
    }

    @Test func bareNilAndArrayBindings_useTheVariadicPath() throws {
        let db = try database()

        try db.execute("INSERT INTO v (i, t, b) VALUES (?, ?, ?)", 1, nil, Data([9]))
        try db.execute("INSERT INTO v (i, t) VALUES (?, ?)", bindings: [2, SQLValue.text("two")])

        let rows = try db.query("SELECT i, t, b FROM v ORDER BY i")
        #expect(
            rows.map(\.values) == [
                [.integer(1), .null, .blob(Data([9]))],
                [.integer(2), .text("two"), .null],
            ])
    }

    @Test func emptyTextAndEmptyBlob_areNotNull() throws {
        let db = try database()

        try db.execute("INSERT INTO v (t, b) VALUES (?, ?)", "", [UInt8]())

        let types = try db.query("SELECT typeof(t), typeof(b), length(t), length(b) FROM v").first
        #expect(types?.values == [.text("text"), .text("blob"), .integer(0), .integer(0)])
    }

    @Test func textWithAnEmbeddedNul_keepsEveryByte() throws {
        let db = try database()
        let text = "a\u{0}b"

        try db.execute("INSERT INTO v (t) VALUES (?)", text)

        #expect(try db.query("SELECT t FROM v") { row in try row.string(0) } == [text])
    }

    @Test func bytesLentInPlace_areTheStoredBytes_andNullIsAMismatch() throws {
        // Given a blob, a text, an empty blob and a NULL
        let db = try database()
        let blob: [UInt8] = [0, 1, 2, 255, 0]
        try db.execute("INSERT INTO v (i, t, b) VALUES (1, 'héllo', ?)", blob)
        try db.execute("INSERT INTO v (i, t, b) VALUES (2, NULL, ?)", [UInt8]())

        // When each row's columns are lent in place
        let lent = try db.query("SELECT t, b FROM v ORDER BY i") { row in
            (
                try row.isNull(0) ? nil : try row.withUnsafeBytes(0) { [UInt8]($0) },
                try row.withUnsafeBytes(1) { [UInt8]($0) }
            )
        }
        let error = #expect(throws: StorageError.self) {
            try db.query("SELECT t FROM v WHERE i = 2") { row in try row.withUnsafeBytes(0) { $0.count } }
        }

        // Then they are the stored bytes, an empty blob is empty, and NULL is no blob
        #expect(lent.map(\.0) == [Array("héllo".utf8), nil])
        #expect(lent.map(\.1) == [blob, []])
        #expect(error?.message == #"column 0 ("t") holds NULL, expected a blob"#)
    }

    @Test func readingNullAsAnInteger_isAMismatchNamingTheColumn() throws {
        let db = try database()
        try db.execute("INSERT INTO v (i) VALUES (NULL)")

        let error = #expect(throws: StorageError.self) {
            try db.query("SELECT i FROM v") { row in try row.int(0) }
        }

        #expect(error?.code == .mismatch)
        #expect(error?.message == #"column 0 ("i") holds NULL, expected an integer"#)
        #expect(error?.sql == "SELECT i FROM v")
    }

    @Test func readingTextAsAnInteger_quotesTheValue() throws {
        let db = try database()
        try db.execute("INSERT INTO v (t) VALUES ('abc')")

        let error = #expect(throws: StorageError.self) {
            try db.query("SELECT t FROM v") { row in try row.int("t") }
        }

        #expect(error?.message == #"column 0 ("t") holds text ('abc'), expected an integer"#)
    }

    @Test func integerColumn_readsAsDouble() throws {
        let db = try database()
        try db.execute("INSERT INTO v (i) VALUES (3)")

        #expect(try db.query("SELECT i FROM v") { row in try row.double(0) } == [3.0])
    }

    @Test func wrongNumberOfBindings_isARangeError() throws {
        let db = try database()

        let error = #expect(throws: StorageError.self) {
            try db.execute("INSERT INTO v (i, t) VALUES (?, ?)", 1)
        }

        #expect(error?.code == .range)
        #expect(error?.message == "the statement has 2 parameter(s) but 1 value(s) were bound")
    }

    @Test func columnOutOfRangeOrUnknownName_isARangeError() throws {
        let db = try database()
        try db.execute("INSERT INTO v (i) VALUES (1)")

        let index = #expect(throws: StorageError.self) {
            try db.query("SELECT i FROM v") { row in try row.int(3) }
        }
        let name = #expect(throws: StorageError.self) {
            try db.query("SELECT i, t FROM v") { row in try row.int("nope") }
        }

        #expect(index?.message == "column index 3 is out of range; the query returns 1 column(s)")
        #expect(name?.message == #"the query has no column named "nope"; its columns are: i, t"#)
    }

    @Test func materializedRows_readByIndexAndName() throws {
        let db = try database()
        try db.execute("INSERT INTO v (i, t) VALUES (?, ?)", 5, "five")

        let row = try #require(try db.query("SELECT i AS number, t AS word FROM v").first)

        #expect(row.columns == ["number", "word"])
        #expect(try row.int("number") == 5)
        #expect(try row.string("WORD") == "five")
        let error = #expect(throws: StorageError.self) { try row.string(0) }
        #expect(error?.message == #"column 0 ("number") holds an integer (5), expected text"#)
    }

    @Test func queryFirst_isNilWithoutRows() throws {
        let db = try database()

        #expect(try db.queryFirst("SELECT i FROM v") { row in try row.int(0) } == nil)
    }

    @Test func lastInsertRowIDAndChanges_reportTheLastStatement() throws {
        let db = try database()

        let rowID = try db.withConnection { db in
            try db.execute("INSERT INTO v (i) VALUES (1)")
            try db.execute("INSERT INTO v (i) VALUES (2)")
            return db.lastInsertRowID
        }
        let changed = try db.execute("UPDATE v SET t = 'x'")

        #expect(rowID == 2)
        #expect(changed == 2)
        #expect(try db.changes == 2)
        #expect(try db.lastInsertRowID == 2)
    }

    @Test func customType_bindsThroughItsSQLValue() throws {
        struct Celsius: SQLBindable {
            var degrees: Double
            var sqlValue: SQLValue { .real(degrees) }
        }
        let db = try database()

        try db.execute("INSERT INTO v (r) VALUES (?)", Celsius(degrees: 21.5))

        #expect(try db.query("SELECT r FROM v") { try $0.double(0) } == [21.5])
    }
}
