import Storage

/// The feed cache's tables.
///
/// - `feed_entries`: the cached feed in display order (`position` ascending; refreshes prepend
///   with smaller positions), each entry's binary body and content version, and the ids and
///   last server facts of the media it shows (its own and a reply's parent), so a cold start
///   reads an entry and its facts from one row.
/// - `feed_pages`: each fetched page, its next cursor and the entity tag it came with (`etag`,
///   added by `etagMigration(version:)`).
/// - `feed_heights`: row heights per (width, entry id, version), a small blob of UInt16s.
/// - `feed_height_snapshots`: per width, every entry's heights packed in feed order: what a cold
///   start reads in one row. Rebuilt in the same transaction as any change to entries or heights.
/// - `feed_state`: one row: format, entries revision (snapshots are valid for it), count, tail
///   cursor, viewer, and how many confirmed follows and unfollows the cached entries do not
///   reflect yet (`unreconciled`, added by `reconcileMigration(version:)`), and the layout the
///   stored heights were measured under (`layout`, added by `layoutMigration(version:)`) and
///   what that key was derived from (`layout_source`, added by
///   `layoutSourceMigration(version:)`).
public enum FeedCacheSchema {
    /// The step that creates these tables, numbered `version` in the database's migration list
    /// (the list's owner, Networking's `AppDatabase`, picks the number once and never changes it).
    public static func migration(version: Int) -> Migration {
        Migration(version: version, name: "feed cache", sql: version1)
    }

    /// The step that adds `feed_state.unreconciled`: the confirmed follows and unfollows the
    /// cached entries do not reflect yet, so the next refresh fetches the cached range again
    /// (see <doc:TheFeedCache>). A cache from before starts with none: the follows it missed are
    /// not known.
    public static func reconcileMigration(version: Int) -> Migration {
        Migration(
            version: version, name: "feed cache reconciling",
            sql: "ALTER TABLE feed_state ADD COLUMN unreconciled INTEGER NOT NULL DEFAULT 0")
    }

    /// The step that adds `feed_state.layout`: the key of the layout the stored heights were
    /// measured under (``FeedCache/adoptLayout(_:)``). A cache from before has 0, which no layout
    /// key is, so its heights are measured again once.
    public static func layoutMigration(version: Int) -> Migration {
        Migration(
            version: version, name: "feed cache layout",
            sql: "ALTER TABLE feed_state ADD COLUMN layout INTEGER NOT NULL DEFAULT 0")
    }

    /// The step that adds `feed_state.layout_source`: what the stored `layout` key was derived
    /// from (a fingerprint of the build and the app's presentation, see
    /// ``FeedCache/layout(measuredUnder:)``), so a launch of the same build reads the key instead
    /// of drawing sample posts to derive it again. A cache from before has none, and derives it
    /// once.
    public static func layoutSourceMigration(version: Int) -> Migration {
        Migration(
            version: version, name: "feed cache layout source",
            sql: "ALTER TABLE feed_state ADD COLUMN layout_source INTEGER")
    }

    /// The step that adds `feed_pages.etag`: the entity tag the server sent with a page, kept
    /// for the newest first page so `refresh` sends it back and an unchanged feed costs a 304
    /// (see <doc:TheFeedCache>). A cache from before has none, and fetches its first page once.
    public static func etagMigration(version: Int) -> Migration {
        Migration(
            version: version, name: "feed cache entity tag",
            sql: "ALTER TABLE feed_pages ADD COLUMN etag TEXT")
    }

    static let version1 = """
        CREATE TABLE feed_entries (
            position INTEGER PRIMARY KEY,
            entry_id TEXT NOT NULL UNIQUE,
            media_id TEXT NOT NULL,
            parent_media_id TEXT,
            version INTEGER NOT NULL,
            page INTEGER NOT NULL,
            body BLOB NOT NULL,
            media_facts BLOB,
            parent_facts BLOB
        );
        CREATE INDEX feed_entries_by_media ON feed_entries (media_id);
        CREATE INDEX feed_entries_by_parent ON feed_entries (parent_media_id) WHERE parent_media_id IS NOT NULL;
        CREATE TABLE feed_pages (
            page INTEGER PRIMARY KEY,
            cursor TEXT,
            next_cursor TEXT,
            fetched_at INTEGER NOT NULL
        );
        CREATE TABLE feed_heights (
            width INTEGER NOT NULL,
            entry_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            rows BLOB NOT NULL,
            PRIMARY KEY (width, entry_id, version)
        ) WITHOUT ROWID;
        CREATE TABLE feed_height_snapshots (
            width INTEGER PRIMARY KEY,
            entries_revision INTEGER NOT NULL,
            touched INTEGER NOT NULL,
            body BLOB NOT NULL
        );
        CREATE TABLE feed_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            format INTEGER NOT NULL,
            entries_revision INTEGER NOT NULL,
            touched INTEGER NOT NULL,
            count INTEGER NOT NULL,
            tail_cursor TEXT,
            viewer TEXT NOT NULL,
            refreshed_at INTEGER
        );
        INSERT INTO feed_state (id, format, entries_revision, touched, count, tail_cursor, viewer, refreshed_at)
        VALUES (1, 1, 0, 0, 0, NULL, '', NULL);
        """
}
