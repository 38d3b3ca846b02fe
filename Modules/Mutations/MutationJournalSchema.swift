import MediaModel
import Storage

/// The mutation journal's tables (a step of the app database's migrations).
///
/// - `mutation_journal`: one row per mutation: its order (`sequence`, never reused thanks to
///   AUTOINCREMENT), token, lane, kind, binary payload (`JournalCodec`), state (0 pending,
///   1 in flight, 2 failed, 3 confirmed and awaiting a list), attempts, consecutive retryable
///   failures (`streak`, the backoff's exponent), next attempt time and creation time (ms since
///   1970), last error, the token it depends on, what its confirmation left (`result`), and the
///   handle of the account it was made as (`account`, added by `accountMigration(version:)`).
/// - `mutation_attempts`: the attempt log, trimmed to the newest rows.
/// - `mutation_meta`: small values the manager keeps across launches (the viewer new posts are
///   shown as).
public enum MutationJournalSchema {
    /// The step that creates these tables, numbered `version` in the database's migration list
    /// (the list's owner, Networking's `AppDatabase`, picks the number once and never changes it).
    public static func migration(version: Int) -> Migration {
        Migration(version: version, name: "mutation journal", sql: version2)
    }

    /// The step that records which account made each change (the column `account`): a change is
    /// sent only while that account is signed in.
    ///
    /// Rows already in the journal are given to the viewer the journal recorded (the account
    /// signed in when the manager last ran: every sign-in records it), the account that made
    /// them unless the person switched accounts while they waited (and then the old build sent
    /// them as that viewer anyway). A journal that never recorded a viewer leaves them without an
    /// account: held, never sent as anyone, and listed as held in Sync. Nothing is deleted.
    public static func accountMigration(version: Int) -> Migration {
        Migration(version: version, name: "mutation journal accounts") { db in
            try db.execute("ALTER TABLE mutation_journal ADD COLUMN account TEXT")
            guard let viewer = try MutationJournal.viewer(db) else { return }
            try db.execute("UPDATE mutation_journal SET account = ?", viewer.handle)
        }
    }

    /// How many changes in `database`'s journal the server has not confirmed (pending or in
    /// flight): what would be lost with the file.
    ///
    /// - Throws: `StorageError` when the journal cannot be read.
    public static func unconfirmedCount(_ database: Database) throws(StorageError) -> Int {
        let rows = try database.query("SELECT count(*) FROM mutation_journal WHERE state IN (0, 1)")
        return try rows.first?.int(0) ?? 0
    }

    /// How many changes in `database`'s journal have not reached the server, per account that
    /// made them (its handle; nil for changes whose account was never recorded), in the order
    /// the accounts first made one: those still to be sent (pending or in flight) and those that
    /// failed (kept until the person retries or discards them).
    ///
    /// - Throws: `StorageError` when the journal cannot be read.
    public static func unsentCounts(_ database: Database) throws(StorageError) -> [UnsentCount] {
        let rows = try database.query(
            """
            SELECT account, sum(state IN (0, 1)), sum(state = 2) FROM mutation_journal WHERE state IN (0, 1, 2)
            GROUP BY account ORDER BY min(sequence)
            """)
        var counts: [UnsentCount] = []
        for row in rows {
            counts.append(
                UnsentCount(
                    account: try row.isNull(0) ? nil : try row.string(0), waiting: try row.int(1),
                    failed: try row.int(2)))
        }
        return counts
    }

    /// The changes of one account that have not reached the server.
    public struct UnsentCount: Hashable, Sendable {
        /// The handle of the account that made them; nil when the journal never recorded it.
        public var account: String?
        /// Pending or in flight.
        public var waiting: Int
        /// Failed, kept until retried or discarded.
        public var failed: Int

        /// Both.
        public var total: Int { waiting + failed }
    }

    static let version2 = """
        CREATE TABLE mutation_journal (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            token TEXT NOT NULL UNIQUE,
            lane TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload BLOB NOT NULL,
            state INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            streak INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER,
            last_error TEXT,
            depends_on TEXT,
            created_at INTEGER NOT NULL,
            result BLOB
        );
        CREATE TABLE mutation_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            token TEXT NOT NULL,
            kind TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            status INTEGER,
            error_class TEXT,
            delay_ms INTEGER,
            detail TEXT NOT NULL
        );
        CREATE INDEX mutation_attempts_by_token ON mutation_attempts (token, id);
        CREATE TABLE mutation_meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
        """
}
