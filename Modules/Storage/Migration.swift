/// One step of a database's schema history, applied once and recorded in `PRAGMA user_version`
/// (on an engine, where the engine keeps it).
///
/// Versions run 1, 2, 3, … with no gaps. A shipped migration is never edited, renumbered or
/// removed: databases in the field already ran it. Migrations must never drop data: add tables,
/// columns and indexes; to reshape a table, create the new one, copy the rows across, then
/// rename. (A cache may instead be deleted and rebuilt, outside of migrations.)
public struct Migration: Sendable {
    /// The schema version this step brings the database to.
    public let version: Int
    /// A short name for messages (`"create media"`).
    public let name: String
    let body: @Sendable (borrowing Connection) throws -> Void

    /// A step that runs a SQL script (several statements allowed).
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.body = { connection in try connection.executeScript(sql) }
    }

    /// A step whose SQL differs between dialects: `sql` on SQLite, `postgres` on PostgreSQL
    /// (`Database(engine:)`), so one list of versions serves both.
    public init(version: Int, name: String, sql: String, postgres: String) {
        self.version = version
        self.name = name
        self.body = { connection in
            try connection.executeScript(connection.dialect == .postgres ? postgres : sql)
        }
    }

    /// A step that runs Swift code (to copy or transform rows).
    public init(version: Int, name: String, _ body: @escaping @Sendable (borrowing Connection) throws -> Void)
    {
        self.version = version
        self.name = name
        self.body = body
    }

    /// What `Database.migrate` did.
    public struct Report: Hashable, Sendable {
        /// The schema version before.
        public let previousVersion: Int
        /// The schema version after (the latest migration's).
        public let currentVersion: Int
        /// The versions applied now, in order; empty when the schema was up to date.
        public let applied: [Int]

        /// Makes a report.
        public init(previousVersion: Int, currentVersion: Int, applied: [Int]) {
            self.previousVersion = previousVersion
            self.currentVersion = currentVersion
            self.applied = applied
        }
    }
}
