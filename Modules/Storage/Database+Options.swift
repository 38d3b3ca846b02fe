extension Database {
    /// Where a database lives.
    public enum Location: Hashable, Sendable {
        /// A private database in memory, gone when closed. (In-memory databases do not use WAL.)
        case inMemory
        /// A file, created if missing (unless opened read-only).
        case file(String)
        /// A database an engine serves (`Database(engine:)`), named by its location.
        case engine(String)

        /// The path SQLite is given (`:memory:` for `inMemory`), or the engine's location.
        public var path: String {
            switch self {
            case .inMemory: ":memory:"
            case .file(let path): path
            case .engine(let location): location
            }
        }
    }

    /// How hard SQLite works to make a commit survive a power loss (`PRAGMA synchronous`).
    ///
    /// With WAL: `normal` never corrupts the database but may lose the last commits on power
    /// loss (right for caches); `full` syncs the log on every commit, so a committed
    /// transaction survives (right for the mutation journal); `off` leaves syncing to the OS
    /// (scratch data only).
    public enum Synchronous: String, Hashable, Sendable {
        /// No syncing.
        case off = "OFF"
        /// Sync at checkpoints: durable against crashes of the app, not of the machine.
        case normal = "NORMAL"
        /// Sync on every commit: durable against power loss.
        case full = "FULL"
    }

    /// How a database is opened.
    public struct Options: Hashable, Sendable {
        /// The durability of commits; see `Synchronous`. Default: `normal`.
        public var synchronous: Synchronous
        /// How long a statement waits for another connection's lock before failing with
        /// `SQLITE_BUSY`. Default: 5 seconds.
        public var busyTimeout: Duration
        /// How many prepared statements each connection keeps, keyed by SQL text (least
        /// recently used ones are finalized first). 0 turns the cache off. Default: 64.
        public var statementCacheCapacity: Int
        /// Opens without write access (and leaves the journal mode as the file has it).
        public var readOnly: Bool

        /// Makes options; every argument has the documented default.
        public init(
            synchronous: Synchronous = .normal, busyTimeout: Duration = .seconds(5),
            statementCacheCapacity: Int = 64, readOnly: Bool = false
        ) {
            self.synchronous = synchronous
            self.busyTimeout = busyTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.readOnly = readOnly
        }
    }
}
