extension StorageError {
    /// A primary SQLite result code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric code (`SQLITE_BUSY` is 5).
        public let rawValue: Int32

        /// Wraps a primary result code.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// SQL error or missing database (`SQLITE_ERROR`).
        public static let error = Code(rawValue: 1)
        /// Internal logic error in SQLite (`SQLITE_INTERNAL`).
        public static let `internal` = Code(rawValue: 2)
        /// Access permission denied (`SQLITE_PERM`).
        public static let permission = Code(rawValue: 3)
        /// An operation was aborted (`SQLITE_ABORT`).
        public static let abort = Code(rawValue: 4)
        /// The database file is locked by another connection (`SQLITE_BUSY`).
        public static let busy = Code(rawValue: 5)
        /// A table in the database is locked (`SQLITE_LOCKED`).
        public static let locked = Code(rawValue: 6)
        /// Out of memory (`SQLITE_NOMEM`).
        public static let noMemory = Code(rawValue: 7)
        /// Attempt to write a read-only database (`SQLITE_READONLY`).
        public static let readOnly = Code(rawValue: 8)
        /// Interrupted (`SQLITE_INTERRUPT`).
        public static let interrupt = Code(rawValue: 9)
        /// A disk I/O error (`SQLITE_IOERR`).
        public static let ioError = Code(rawValue: 10)
        /// The database disk image is malformed (`SQLITE_CORRUPT`).
        public static let corrupt = Code(rawValue: 11)
        /// The disk is full (`SQLITE_FULL`).
        public static let full = Code(rawValue: 13)
        /// The database file cannot be opened (`SQLITE_CANTOPEN`).
        public static let cannotOpen = Code(rawValue: 14)
        /// The schema changed, or a migration problem (`SQLITE_SCHEMA`).
        public static let schema = Code(rawValue: 17)
        /// A string or blob is too big (`SQLITE_TOOBIG`).
        public static let tooBig = Code(rawValue: 18)
        /// A constraint was violated (`SQLITE_CONSTRAINT`).
        public static let constraint = Code(rawValue: 19)
        /// A value had the wrong type (`SQLITE_MISMATCH`).
        public static let mismatch = Code(rawValue: 20)
        /// The library was used incorrectly (`SQLITE_MISUSE`).
        public static let misuse = Code(rawValue: 21)
        /// Authorization denied (`SQLITE_AUTH`).
        public static let authorization = Code(rawValue: 23)
        /// A parameter or column index is out of range (`SQLITE_RANGE`).
        public static let range = Code(rawValue: 25)
        /// The file is not a database (`SQLITE_NOTADB`).
        public static let notADatabase = Code(rawValue: 26)

        /// The code's SQLite name (`SQLITE_BUSY`), or `SQLITE_<n>` for a code without one here.
        public var name: String { Self.names[rawValue] ?? "SQLITE_\(rawValue)" }

        /// The SQLite name.
        public var description: String { name }

        /// How to fix a failure with this code, or `nil` when there is nothing general to say.
        public var hint: String? {
            switch self {
            case .busy, .locked:
                "another connection holds the lock; retry, raise Database.Options.busyTimeout, or keep "
                    + "write transactions short (begin them .immediate)"
            case .constraint:
                "the row breaks a UNIQUE, PRIMARY KEY, NOT NULL, CHECK or FOREIGN KEY constraint; check the "
                    + "values bound, or use INSERT ... ON CONFLICT to update instead"
            case .notADatabase, .corrupt:
                "the file is not a SQLite database or is damaged; if it is a cache, delete it and start "
                    + "afresh, otherwise restore it from a backup"
            case .cannotOpen:
                "check that the directory exists and that this process may read and write it"
            case .readOnly:
                "the database was opened read-only or the file is not writable; open it with "
                    + "Options.readOnly = false and check the file's permissions"
            case .full:
                "the disk is full; free space and retry"
            case .mismatch:
                "read the column with the accessor for its type, and check isNull(_:) first for a "
                    + "nullable column"
            case .range:
                "bind exactly one value per '?' in the SQL, and read only the columns the query returns"
            default: nil
            }
        }

        static let names: [Int32: String] = [
            0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
            5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
            9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND",
            13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY",
            17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH",
            21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
            25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        ]

        static let extendedNames: [Int32: String] = [
            261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
            262: "SQLITE_LOCKED_SHAREDCACHE", 275: "SQLITE_CONSTRAINT_CHECK",
            531: "SQLITE_CONSTRAINT_COMMITHOOK", 787: "SQLITE_CONSTRAINT_FOREIGNKEY",
            1043: "SQLITE_CONSTRAINT_FUNCTION", 1299: "SQLITE_CONSTRAINT_NOTNULL",
            1555: "SQLITE_CONSTRAINT_PRIMARYKEY", 1811: "SQLITE_CONSTRAINT_TRIGGER",
            2067: "SQLITE_CONSTRAINT_UNIQUE", 2323: "SQLITE_CONSTRAINT_VTAB", 2579: "SQLITE_CONSTRAINT_ROWID",
            1032: "SQLITE_READONLY_DBMOVED", 264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK",
            266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
            1034: "SQLITE_IOERR_FSYNC", 3850: "SQLITE_IOERR_LOCK", 267: "SQLITE_CORRUPT_VTAB",
            1038: "SQLITE_CANTOPEN_ISDIR", 14: "SQLITE_CANTOPEN",
        ]
    }
}
