import CSQLite
import Foundation

/// An open SQLite connection with its statement cache and transaction depth.
///
/// `@unchecked Sendable` invariant: a core is created by a `Database` and stored in its
/// `Mutex`; every use of it (and of its statements) happens while that mutex is held, so at
/// most one thread touches it at a time. `Connection` and `Statement` values that reach user
/// code are `~Copyable` and only lent to closures running under the lock, so they cannot
/// outlive it.
@usableFromInline
final class ConnectionCore: @unchecked Sendable {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let path: String
    private let cacheCapacity: Int
    private var cache: [String: StatementCore] = [:]
    private var useClock: UInt64 = 0
    /// The statement handed out last: a statement run in a loop is found by comparing its SQL
    /// text (often the same string storage, so O(1)) instead of hashing it.
    private var lastStatement: StatementCore?
    /// How many savepoints are open inside the current transaction.
    var savepointDepth = 0
    /// The `synchronous` setting in force.
    var synchronous: Database.Synchronous
    /// The journal mode SQLite reported at open (`"wal"` for a file database).
    private(set) var journalMode = ""

    private init(handle: OpaquePointer, path: String, options: Database.Options) {
        self.handle = handle
        self.path = path
        self.cacheCapacity = max(options.statementCacheCapacity, 0)
        self.synchronous = options.synchronous
    }

    /// Opens and configures a connection: WAL (for a writable file), `synchronous`, busy
    /// timeout, foreign keys, extended result codes.
    static func open(path: String, options: Database.Options) throws(StorageError) -> ConnectionCore {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            var error = StorageError.sqlite(result, handle: handle, sql: nil, path: path)
            error = StorageError(
                code: error.code, extendedCode: error.extendedCode,
                message: "cannot open the database file: \(error.message)", path: path)
            if let handle { sqlite3_close_v2(handle) }
            throw error
        }
        let core = ConnectionCore(handle: handle, path: path, options: options)
        do {
            sqlite3_extended_result_codes(handle, 1)
            let milliseconds =
                options.busyTimeout.components.seconds * 1000
                + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000
            sqlite3_busy_timeout(handle, Int32(clamping: max(milliseconds, 0)))
            // The first statement reads the file header: a file that is not a database fails here.
            core.journalMode =
                try options.readOnly
                ? core.scalarText("PRAGMA journal_mode")
                : core.switchToWAL(within: options.busyTimeout)
            try core.execute("PRAGMA synchronous = \(options.synchronous.rawValue)")
            try core.execute("PRAGMA foreign_keys = ON")
        } catch {
            core.close()
            if error.code == .notADatabase || error.code == .corrupt {
                throw StorageError(
                    code: error.code, extendedCode: error.extendedCode,
                    message: "'\(path)' is not a usable SQLite database (\(error.message))",
                    sql: error.sql, path: path)
            }
            throw error
        }
        return core
    }

    /// Runs `PRAGMA journal_mode = WAL`, retrying while another connection holds the lock.
    ///
    /// SQLite answers `SQLITE_BUSY` there without calling the busy handler when several
    /// connections switch a brand-new file at the same moment, so the wait is done here: up to
    /// `timeout` (at least 1 second), sleeping 1 ms and doubling to 50 ms between tries.
    ///
    /// - Returns: The journal mode SQLite reports (`"wal"`).
    func switchToWAL(within timeout: Duration) throws(StorageError) -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + max(timeout, .seconds(1))
        var pause = Duration.milliseconds(1)
        while true {
            do {
                return try scalarText("PRAGMA journal_mode = WAL")
            } catch  where (error.code == .busy || error.code == .locked) && clock.now < deadline {
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) * 1e-18)  // pause < 1 s
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    /// Finalizes every cached statement and closes the handle.
    func close() {
        lastStatement = nil
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// A statement for `sql` from the cache (prepared and cached on first use), marked in use.
    ///
    /// When the cached statement is already in use (the same SQL run from inside a query of
    /// itself), a fresh uncached statement is prepared instead.
    @usableFromInline
    func checkOut(_ sql: String) throws(StorageError) -> (statement: StatementCore, cached: Bool) {
        useClock &+= 1
        if let last = lastStatement, !last.inUse, last.sql == sql {
            last.inUse = true
            last.lastUse = useClock
            return (last, true)
        }
        if let statement = cache[sql] {
            if !statement.inUse {
                statement.inUse = true
                statement.lastUse = useClock
                lastStatement = statement
                return (statement, true)
            }
            let fresh = try prepare(sql, persistent: false)
            fresh.inUse = true
            return (fresh, false)
        }
        let statement = try prepare(sql, persistent: cacheCapacity > 0)
        statement.inUse = true
        statement.lastUse = useClock
        guard cacheCapacity > 0 else { return (statement, false) }
        if cache.count >= cacheCapacity { evictLeastRecentlyUsed() }
        cache[sql] = statement
        lastStatement = statement
        return (statement, true)
    }

    /// Returns a statement taken with `checkOut`.
    @usableFromInline
    func checkIn(_ statement: StatementCore) {
        statement.resetIfNeeded()
        statement.inUse = false
    }

    private func evictLeastRecentlyUsed() {
        var oldest: (sql: String, use: UInt64)?
        for (sql, statement) in cache where !statement.inUse {
            if oldest == nil || statement.lastUse < (oldest?.use ?? 0) { oldest = (sql, statement.lastUse) }
        }
        if let oldest {
            if lastStatement?.sql == oldest.sql { lastStatement = nil }
            cache.removeValue(forKey: oldest.sql)
        }
    }

    /// Prepares exactly one statement; SQL holding several statements is an error.
    func prepare(_ sql: String, persistent: Bool) throws(StorageError) -> StatementCore {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let result = sql.withCString { text in sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
        }
        guard result == SQLITE_OK else {
            throw StorageError.sqlite(result, handle: handle, sql: sql, path: path)
        }
        guard let statement else {
            throw StorageError(
                code: .misuse, message: "the SQL holds no statement (it is empty or only comments)", sql: sql,
                path: path)
        }
        let prepared = StatementCore(handle: statement, sql: sql)
        if let tail, hasStatement(tail) {
            throw StorageError(
                code: .misuse,
                message: "the SQL holds more than one statement; run one at a time, or use executeScript(_:) "
                    + "for a script",
                sql: sql, path: path)
        }
        return prepared
    }

    private func hasStatement(_ text: UnsafePointer<CChar>) -> Bool {
        if text.pointee == 0 { return false }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, text, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        // A tail that fails to prepare still holds something that is not whitespace or comments.
        return result != SQLITE_OK || statement != nil
    }

    /// Runs one statement through the cache, without bindings.
    @discardableResult
    func execute(_ sql: String) throws(StorageError) -> Int {
        let (statement, _) = try checkOut(sql)
        defer { checkIn(statement) }
        return try statement.run(core: self)
    }

    /// Runs a statement and returns the first column of its first row as text.
    func scalarText(_ sql: String) throws(StorageError) -> String {
        let (statement, _) = try checkOut(sql)
        defer { checkIn(statement) }
        guard try statement.step(core: self), let text = sqlite3_column_text(statement.handle, 0) else {
            return ""
        }
        return String(cString: text)
    }

    /// Runs a statement and returns the first column of its first row as an integer.
    func scalarInt(_ sql: String) throws(StorageError) -> Int {
        let (statement, _) = try checkOut(sql)
        defer { checkIn(statement) }
        guard try statement.step(core: self) else { return 0 }
        return Int(sqlite3_column_int64(statement.handle, 0))
    }

    /// Runs SQL text that may hold several statements, in order, without bindings.
    func executeScript(_ sql: String) throws(StorageError) {
        var failure: StorageError?
        sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let text = next, text.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                var result = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
                if result == SQLITE_OK, let statement {
                    repeat { result = sqlite3_step(statement) } while result == SQLITE_ROW
                    if result == SQLITE_DONE { result = SQLITE_OK }
                }
                let failed = result != SQLITE_OK
                let failedText = failed ? String(cString: text) : ""
                if failed {
                    failure = StorageError.sqlite(result, handle: handle, sql: failedText, path: path)
                }
                sqlite3_finalize(statement)
                if failed { return }
                next = tail
            }
        }
        if let failure { throw failure }
    }

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
