/// An app database found damaged when it was opened, and kept aside under another name so the
/// app could start with a fresh one. Nothing in it was deleted: the file (with its `-wal` and
/// `-shm`, when present) is renamed, never removed.
public struct SetAsideDatabase: Hashable, Sendable, CustomStringConvertible {
    /// Where the database was (`…/app.sqlite`); a fresh database is there now.
    public var path: String
    /// Where the damaged file is kept (`…/app.sqlite.corrupt-20261126T101500Z`).
    public var keptPath: String
    /// What was wrong, in words: `it is empty (0 bytes)`.
    public var damage: String
    /// What the kept file still holds, as the database's owner reads it (`holds 3 unsent changes,
    /// not sent: keep the file`); nil when that could not be read from the damaged file.
    public var contents: String?

    /// Makes a description of a set-aside database.
    public init(path: String, keptPath: String, damage: String, contents: String?) {
        self.path = path
        self.keptPath = keptPath
        self.damage = damage
        self.contents = contents
    }

    /// What happened and where the old file is, for standard error.
    public var description: String {
        "the app database '\(path)' is damaged (\(damage)); it was kept as '\(keptPath)' and the app started "
            + "with a fresh database. "
            + (contents.map { "The kept file \($0)." }
                ?? "What the kept file held could not be read; keep it if you need what it held.")
    }

    /// One line for the status bar: what happened and the kept file's name.
    public var summary: String {
        let name = keptPath.split(separator: "/").last.map(String.init) ?? keptPath
        return "database damaged; kept as \(name), started fresh"
    }
}
