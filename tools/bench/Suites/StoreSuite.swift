import Basics
import CSQLite
import Foundation
import Storage

/// `store`: inserting and reading back 10,000 media rows through Storage, each figure beside the
/// same work done with raw sqlite3 calls (same PRAGMAs, one prepared statement, one transaction).
enum StoreSuite {
    static let suite = BenchSuite(
        name: "store",
        summary: "insert and read back 10,000 media rows through Storage vs raw sqlite3 calls"
    ) { runner in
        let rows = MediaRow.make(count: 10_000, seed: 0x5EED)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-store-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // One file per way of inserting, each seeing the same sequence of writes. Automatic WAL
        // checkpoints are off on every file (wrapper and baseline alike) and each round starts
        // from a truncated log: a checkpoint is SQLite's I/O, not wrapper overhead, and landing
        // on one run in three it made the medians jump.
        let options = Database.Options(synchronous: .normal)
        func open(_ name: String) throws -> Database {
            let database = try Database(path: directory.appendingPathComponent(name).path, options: options)
            try database.execute(MediaRow.createSQL)
            return database
        }
        let binder = try open("binder.sqlite")
        let values = try open("values.sqlite")
        let perRow = try open("per-row.sqlite")
        let raw = try RawDatabase(path: directory.appendingPathComponent("raw.sqlite").path)
        try raw.execute(MediaRow.createSQL)
        runner.log("journal mode: storage \(binder.journalMode), raw \(try raw.journalMode()); 10,000 rows")
        for database in [binder, values, perRow] { try database.execute("PRAGMA wal_autocheckpoint = 0") }
        try raw.execute("PRAGMA wal_autocheckpoint = 0")
        func truncateLogs() throws {
            for database in [binder, values, perRow] {
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }

        // Interleave rounds so drift on a noisy machine hits every side alike.
        var insert = (raw: [Double](), binder: [Double](), values: [Double](), perRow: [Double]())
        var read = (raw: [Double](), storage: [Double]())
        for _ in 0..<4 {
            try truncateLogs()
            insert.raw += try runner.measure(warmup: 1, runs: 4) { try raw.insertAll(rows) }.sorted
            insert.binder += try runner.measure(warmup: 1, runs: 4) {
                try insertWithBinder(rows, into: binder)
            }.sorted
            insert.values += try runner.measure(warmup: 1, runs: 4) {
                try insertWithValues(rows, into: values)
            }.sorted
            insert.perRow += try runner.measure(warmup: 1, runs: 4) { try insertRowByRow(rows, into: perRow) }
                .sorted
            read.raw += try runner.measure(warmup: 1, runs: 4) { try check(raw.readAll(), rows) }.sorted
            read.storage += try runner.measure(warmup: 1, runs: 4) {
                try check(readThroughStorage(binder), rows)
            }.sorted
        }
        let rawInsert = (name: "raw sqlite3", samples: Samples(insert.raw))
        runner.report(
            "insert 10,000 (prepare + SQLBinder)", Samples(insert.binder), unit: .milliseconds,
            baseline: rawInsert, targets: [.withinBaseline(factor: 1.3)],
            note: "one transaction, WAL, synchronous=NORMAL, checkpoints outside the timing")
        runner.report(
            "insert 10,000 (execute per row + SQLBinder)", Samples(insert.perRow), unit: .milliseconds,
            baseline: rawInsert, note: "statement cache lookup per row; no target")
        runner.report(
            "insert 10,000 (prepare + execute(values...))", Samples(insert.values), unit: .milliseconds,
            baseline: rawInsert, note: "parameter-pack convenience; no target")
        runner.report(
            "read back 10,000 (query map)", Samples(read.storage), unit: .milliseconds,
            baseline: ("raw sqlite3", Samples(read.raw)), targets: [.withinBaseline(factor: 1.3)])
        let storageTotal = Samples(zip(insert.binder.sorted(), read.storage.sorted()).map { $0 + $1 })
        let rawTotal = Samples(zip(insert.raw.sorted(), read.raw.sorted()).map { $0 + $1 })
        runner.report(
            "insert + read back 10,000", storageTotal, unit: .milliseconds,
            baseline: ("raw sqlite3", rawTotal), targets: [.withinBaseline(factor: 1.3)],
            note: "SQLBinder insert + query map, sorted samples summed rank by rank")

        // Durable commits, as the mutation journal makes them: one row per transaction with
        // synchronous=FULL for that commit (the database stays NORMAL otherwise).
        try binder.execute(MediaRow.journalSQL)
        try raw.execute(MediaRow.journalSQL)
        let body = [UInt8](repeating: 7, count: 200)
        let rawDurable = try runner.measure(warmup: 1, runs: 5, iterations: 20) {
            for index in 0..<20 { try raw.durableInsert(token: "t\(index)", body: body) }
        }
        let storageDurable = try runner.measure(warmup: 1, runs: 5, iterations: 20) {
            for index in 0..<20 {
                try binder.transaction(synchronous: .full) { db in
                    try db.execute(
                        "INSERT OR REPLACE INTO journal (token, body) VALUES (?, ?)", "t\(index)", body)
                }
            }
        }
        runner.report(
            "durable commit of one journal row", storageDurable, unit: .microseconds,
            baseline: ("raw sqlite3", rawDurable), note: "synchronous=FULL for the commit; no target")

        for database in [binder, values, perRow] { try database.close() }
        raw.close()
    }

    private static func insertWithBinder(_ rows: [MediaRow], into database: Database) throws {
        try database.transaction { db in
            try db.execute("DELETE FROM media")
            let insert = try db.prepare(MediaRow.insertSQL)
            for row in rows {
                try insert.execute { values in
                    try values.bind(row.id)
                    try values.bind(row.authorID)
                    try values.bind(row.createdAt)
                    try values.bind(row.kind)
                    try values.bind(row.text)
                    try values.bind(row.likeCount)
                    try values.bind(row.pixels)
                }
            }
        }
    }

    private static func insertRowByRow(_ rows: [MediaRow], into database: Database) throws {
        try database.transaction { db in
            try db.execute("DELETE FROM media")
            for row in rows {
                try db.execute(MediaRow.insertSQL) { values in
                    try values.bind(row.id)
                    try values.bind(row.authorID)
                    try values.bind(row.createdAt)
                    try values.bind(row.kind)
                    try values.bind(row.text)
                    try values.bind(row.likeCount)
                    try values.bind(row.pixels)
                }
            }
        }
    }

    private static func insertWithValues(_ rows: [MediaRow], into database: Database) throws {
        try database.transaction { db in
            try db.execute("DELETE FROM media")
            let insert = try db.prepare(MediaRow.insertSQL)
            for row in rows {
                try insert.execute(
                    row.id, row.authorID, row.createdAt, row.kind, row.text, row.likeCount, row.pixels)
            }
        }
    }

    private static func readThroughStorage(_ database: Database) throws -> [MediaRow] {
        try database.query(MediaRow.selectSQL) { row in
            MediaRow(
                id: try row.int64(0), authorID: try row.int64(1), createdAt: try row.int64(2),
                kind: try row.string(3), text: try row.string(4), likeCount: try row.int(5),
                pixels: try row.bytes(6))
        }
    }

    private static func check(_ read: [MediaRow], _ written: [MediaRow]) throws {
        guard read.count == written.count, read.first == written.first, read.last == written.last else {
            throw BenchFailure(message: "read back \(read.count) rows, expected \(written.count) equal rows")
        }
        blackHole(read)
    }

    struct BenchFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// One media row as the app's cache stores it: ids, time, kind, text, a count and a small image.
    struct MediaRow: Equatable {
        var id: Int64
        var authorID: Int64
        var createdAt: Int64
        var kind: String
        var text: String
        var likeCount: Int
        var pixels: [UInt8]

        static let createSQL = """
            CREATE TABLE IF NOT EXISTS media (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL,
              created_at INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
              like_count INTEGER NOT NULL, pixels BLOB NOT NULL)
            """
        static let journalSQL =
            "CREATE TABLE IF NOT EXISTS journal (token TEXT PRIMARY KEY, body BLOB NOT NULL)"
        static let insertSQL = """
            INSERT INTO media (id, author_id, created_at, kind, text, like_count, pixels)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        static let selectSQL =
            "SELECT id, author_id, created_at, kind, text, like_count, pixels FROM media ORDER BY id"

        static func make(count: Int, seed: UInt64) -> [MediaRow] {
            var random = SplitMix64(seed: seed)
            let words = [
                "sunset", "coffee", "thread", "reply", "harbor", "city", "light", "morning", "walk", "rain",
            ]
            let kinds = ["photo", "text", "video", "carousel"]
            return (0..<count).map { index in
                let wordCount = Int.random(in: 4...16, using: &random)
                let text = (0..<wordCount).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
                    .joined(separator: " ")
                return MediaRow(
                    id: Int64(index + 1), authorID: Int64.random(in: 1...50, using: &random),
                    createdAt: 1_700_000_000_000 + Int64(index) * 60_000, kind: kinds[index % kinds.count],
                    text: text, likeCount: Int.random(in: 0...5_000, using: &random),
                    pixels: (0..<48).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
        }
    }

    /// The baseline: the sqlite3 C API used directly, with the PRAGMAs `Database` sets.
    final class RawDatabase {
        private let handle: OpaquePointer
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(path: String) throws {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
                throw BenchFailure(message: "raw sqlite3: cannot open \(path)")
            }
            self.handle = handle
            sqlite3_extended_result_codes(handle, 1)
            sqlite3_busy_timeout(handle, 5000)
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
            try execute("PRAGMA foreign_keys = ON")
        }

        func close() { sqlite3_close_v2(handle) }

        func execute(_ sql: String) throws {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
        }

        func journalMode() throws -> String {
            let statement = try prepare("PRAGMA journal_mode")
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
                return "?"
            }
            return String(cString: text)
        }

        func insertAll(_ rows: [MediaRow]) throws {
            let statement = try prepare(MediaRow.insertSQL)
            defer { sqlite3_finalize(statement) }
            try execute("BEGIN IMMEDIATE")
            try execute("DELETE FROM media")
            for row in rows {
                sqlite3_bind_int64(statement, 1, row.id)
                sqlite3_bind_int64(statement, 2, row.authorID)
                sqlite3_bind_int64(statement, 3, row.createdAt)
                bindText(statement, 4, row.kind)
                bindText(statement, 5, row.text)
                sqlite3_bind_int64(statement, 6, Int64(row.likeCount))
                row.pixels.withUnsafeBytes { bytes in
                    _ = sqlite3_bind_blob(statement, 7, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
                guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(MediaRow.insertSQL) }
                sqlite3_reset(statement)
            }
            try execute("COMMIT")
        }

        func durableInsert(token: String, body: [UInt8]) throws {
            let statement = try prepare("INSERT OR REPLACE INTO journal (token, body) VALUES (?, ?)")
            defer { sqlite3_finalize(statement) }
            try execute("PRAGMA synchronous = FULL")
            try execute("BEGIN IMMEDIATE")
            bindText(statement, 1, token)
            body.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, 2, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("INSERT INTO journal") }
            try execute("COMMIT")
            try execute("PRAGMA synchronous = NORMAL")
        }

        func readAll() throws -> [MediaRow] {
            let statement = try prepare(MediaRow.selectSQL)
            defer { sqlite3_finalize(statement) }
            var rows: [MediaRow] = []
            while true {
                let result = sqlite3_step(statement)
                if result == SQLITE_DONE { break }
                guard result == SQLITE_ROW else { throw failure(MediaRow.selectSQL) }
                rows.append(
                    MediaRow(
                        id: sqlite3_column_int64(statement, 0), authorID: sqlite3_column_int64(statement, 1),
                        createdAt: sqlite3_column_int64(statement, 2), kind: text(statement, 3),
                        text: text(statement, 4), likeCount: Int(sqlite3_column_int64(statement, 5)),
                        pixels: bytes(statement, 6)))
            }
            return rows
        }

        /// Binds text from the string's own UTF-8 bytes (no C-string copy), the fastest raw way.
        private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
            var text = text
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    _ = sqlite3_bind_text(
                        statement, index, chars.baseAddress, Int32(chars.count), Self.transient)
                }
            }
        }

        private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
            guard let pointer = sqlite3_column_text(statement, column) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        }

        private func bytes(_ statement: OpaquePointer, _ column: Int32) -> [UInt8] {
            guard let pointer = sqlite3_column_blob(statement, column) else { return [] }
            return [UInt8](
                UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))))
        }

        private func prepare(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw failure(sql)
            }
            return statement
        }

        private func failure(_ sql: String) -> BenchFailure {
            BenchFailure(message: "raw sqlite3: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }
}
