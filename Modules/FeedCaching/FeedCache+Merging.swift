import Basics
import Foundation
import MediaModel
import ServerAPI
import Storage
import Wire

extension FeedCache {
    /// Merges a fresh first page of the feed: its entries go on top, in the server's order,
    /// with no duplicates; cached entries the page now covers but no longer holds are dropped;
    /// entries below it stay, with the cursor to load more. When the page does not reach any
    /// cached entry (more new entries than a page), the cache is reset to the page. The media
    /// store gets the page's facts.
    ///
    /// Complexity: O(n) in the cached entries, plus rebuilding the packed heights of each kept
    /// width.
    @discardableResult
    public func merge(firstPage envelope: FeedPageEnvelope) throws -> FeedMerge {
        try merge(envelope, replacingAll: false, reconciled: 0)
    }

    /// Merges pages fetched from the top of the feed (`merge(firstPage:)`), or, `replacingAll`,
    /// makes them the whole cache: entries the pages no longer hold are removed, the others
    /// keep their heights. `reconciled` follows and unfollows (read before the fetch) are then
    /// reflected; any confirmed since stay to reconcile.
    func merge(_ envelope: FeedPageEnvelope, replacingAll: Bool, reconciled: Int64) throws -> FeedMerge {
        let page = Self.prepared(envelope.payload.entries)
        let fetchedAt = clock.now.wireMilliseconds
        let result = try database.transaction { db -> FeedMerge in
            try Self.checkFormat(db)
            let existing = try Self.positions(db)
            let known = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let pageIDs = Set(page.map(\.id))
            let lastOverlap = page.compactMap { known[$0.id]?.position }.max()
            var merge = FeedMerge()
            // With its tag, if the server sent one: the next refresh asks only for a change.
            let pageNumber = try Self.recordPage(
                db, cursor: nil, next: envelope.payload.nextCursor, at: fetchedAt, etag: envelope.etag)
            let base: Int64
            var tail = try Self.state(db)?.tailCursor
            if replacingAll {
                merge.removed = existing.filter { !pageIDs.contains($0.id) }.map { FeedEntryID($0.id) }
                try db.execute("DELETE FROM feed_entries")
                base = 0
                tail = envelope.payload.nextCursor
            } else if let lastOverlap {
                let region = existing.filter { $0.position <= lastOverlap }
                merge.removed = region.filter { !pageIDs.contains($0.id) }.map { FeedEntryID($0.id) }
                try db.execute("DELETE FROM feed_entries WHERE position <= ?", lastOverlap)
                let following = existing.first { $0.position > lastOverlap }?.position
                base = (following ?? lastOverlap + 1) - Int64(page.count)
                if following == nil { tail = envelope.payload.nextCursor }
            } else {
                merge.removed = existing.map { FeedEntryID($0.id) }
                merge.didReset = !existing.isEmpty
                try db.execute("DELETE FROM feed_entries")
                base = 0
                tail = envelope.payload.nextCursor
            }
            let insert = try db.prepare(
                "INSERT INTO feed_entries (position, entry_id, media_id, parent_media_id, version, page, body) VALUES (?, ?, ?, ?, ?, ?, ?)"
            )
            for (offset, item) in page.enumerated() {
                try insert.execute { row in
                    try row.bind(base + Int64(offset))
                    try row.bind(item.id)
                    try row.bind(item.mediaID)
                    try row.bind(item.parentMediaID)
                    try row.bind(item.version)
                    try row.bind(pageNumber)
                    try row.bind(item.body)
                }
                if let previous = known[item.id] {
                    if previous.version != item.version { merge.updated.append(FeedEntryID(item.id)) }
                } else {
                    merge.inserted.append(FeedEntryID(item.id))
                }
            }
            try Self.storeFacts(db, envelope.facts)
            try Self.dropStaleHeights(db)
            if reconciled > 0 {
                try db.execute(
                    "UPDATE feed_state SET unreconciled = MAX(unreconciled - ?, 0) WHERE id = 1", reconciled)
            }
            merge.count = try Self.finishEntriesChange(db, tail: tail, refreshedAt: fetchedAt)
            merge.tailCursor = tail
            return merge
        }
        mediaStore.apply(envelope.facts)
        return result
    }

    /// Appends a page loaded after `cursor` below the cached entries, skipping entries already
    /// cached, and moves the tail cursor to the page's `nextCursor`. The media store gets the
    /// page's facts.
    ///
    /// A page loaded after a cursor that is no longer the tail is left out (the result says
    /// what the cache holds; its facts still reach the media store): a refresh that reset or
    /// reconciled the cache while it was loading moved the tail, and the page would leave a gap
    /// above it.
    @discardableResult
    public func append(_ envelope: FeedPageEnvelope, after cursor: String? = nil) throws -> FeedMerge {
        let page = Self.prepared(envelope.payload.entries)
        let fetchedAt = clock.now.wireMilliseconds
        let result = try database.transaction { db -> FeedMerge in
            try Self.checkFormat(db)
            if let cursor, let state = try Self.state(db), state.tailCursor != cursor {
                return FeedMerge(count: state.count, tailCursor: state.tailCursor)
            }
            let existing = Set(try db.query("SELECT entry_id FROM feed_entries") { try $0.string(0) })
            let last =
                try db.queryFirst("SELECT MAX(position) FROM feed_entries") { row in
                    try row.isNull(0) ? nil : try row.int64(0)
                } ?? nil
            let pageNumber = try Self.recordPage(
                db, cursor: cursor, next: envelope.payload.nextCursor, at: fetchedAt)
            var merge = FeedMerge()
            let insert = try db.prepare(
                "INSERT INTO feed_entries (position, entry_id, media_id, parent_media_id, version, page, body) VALUES (?, ?, ?, ?, ?, ?, ?)"
            )
            var position = (last ?? -1) + 1
            for item in page where !existing.contains(item.id) {
                try insert.execute { row in
                    try row.bind(position)
                    try row.bind(item.id)
                    try row.bind(item.mediaID)
                    try row.bind(item.parentMediaID)
                    try row.bind(item.version)
                    try row.bind(pageNumber)
                    try row.bind(item.body)
                }
                merge.inserted.append(FeedEntryID(item.id))
                position += 1
            }
            try Self.storeFacts(db, envelope.facts)
            let tail = envelope.payload.nextCursor
            merge.count = try Self.finishEntriesChange(db, tail: tail, refreshedAt: nil)
            merge.tailCursor = tail
            return merge
        }
        mediaStore.apply(envelope.facts)
        return result
    }

    /// Forgets everything cached (entries with their facts, pages, heights).
    public func clear() throws {
        try database.transaction { db in try Self.clear(db) }
    }

    /// Makes the cache belong to `viewer` (any stable string for the signed-in account): a cache
    /// written for another viewer is cleared, since their feed is not this one's.
    public func prepare(viewer: String) throws {
        try database.transaction { db in
            let state = try Self.state(db)
            guard state?.viewer != viewer || state?.format != EntryCodec.format else { return }
            try Self.clear(db)
            // Follows the last viewer made are nothing to reconcile for this one.
            try db.execute("UPDATE feed_state SET viewer = ?, unreconciled = 0 WHERE id = 1", viewer)
        }
    }

    // MARK: - Helpers

    /// An entry ready to store.
    struct PreparedEntry {
        var id: String
        var mediaID: String
        var parentMediaID: String?
        var version: Int64
        var body: [UInt8]
    }

    /// A page's entries encoded, without duplicate ids (the first wins), with their versions.
    static func prepared(_ entries: [FeedEntry]) -> [PreparedEntry] {
        var seen: Set<FeedEntryID> = []
        var result: [PreparedEntry] = []
        result.reserveCapacity(entries.count)
        for entry in entries where seen.insert(entry.id).inserted {
            let body = EntryCodec.encode(entry)
            var parent: String?
            if case .reply(let media) = entry.context { parent = media.id.rawValue }
            result.append(
                PreparedEntry(
                    id: entry.id.rawValue, mediaID: entry.media.id.rawValue, parentMediaID: parent,
                    version: contentVersion(body), body: body))
        }
        return result
    }

    /// An entry's content version: a 64-bit FNV-1a hash of its encoded form.
    static func contentVersion(_ body: [UInt8]) -> Int64 {
        Int64(bitPattern: FNV1a.hash(body))
    }

    static func positions(_ db: borrowing Connection) throws -> [(
        id: String, position: Int64, version: Int64
    )] {
        try db.query("SELECT entry_id, position, version FROM feed_entries ORDER BY position") { row in
            (try row.string(0), try row.int64(1), try row.int64(2))
        }
    }

    static func recordPage(
        _ db: borrowing Connection, cursor: String?, next: String?, at time: Int64, etag: String? = nil
    ) throws -> Int64 {
        if let etag {
            try db.execute(
                "INSERT INTO feed_pages (cursor, next_cursor, fetched_at, etag) VALUES (?, ?, ?, ?)", cursor,
                next,
                time, etag)
        } else {
            try db.execute(
                "INSERT INTO feed_pages (cursor, next_cursor, fetched_at) VALUES (?, ?, ?)", cursor, next,
                time)
        }
        return db.lastInsertRowID
    }

    /// Writes facts into every cached entry that shows the media, as itself or as a parent, so
    /// the next cold start shows them. The mutation manager calls it inside the journal write that
    /// records a confirmation, so the facts and the confirmation are saved together.
    package static func storeFacts(_ db: borrowing Connection, _ facts: [MediaID: MediaFacts]) throws {
        guard !facts.isEmpty else { return }
        for (id, value) in facts {
            let blob = EntryCodec.encode(value)
            try db.execute("UPDATE feed_entries SET media_facts = ? WHERE media_id = ?", blob, id.rawValue)
            try db.execute(
                "UPDATE feed_entries SET parent_facts = ? WHERE parent_media_id = ?", blob, id.rawValue)
        }
    }

    /// Records that a follow or an unfollow was confirmed: the server's feed now differs all the
    /// way down, so the next `refresh` fetches the cached range again rather than only its top
    /// (see <doc:TheFeedCache>). The mutation manager calls it inside the journal write that
    /// records the confirmation, so it survives a restart with it.
    package static func markFollowsChanged(_ db: borrowing Connection) throws {
        try db.execute("UPDATE feed_state SET unreconciled = unreconciled + 1 WHERE id = 1")
    }

    /// Whether the cached entries miss a change the server has all the way down (a confirmed
    /// follow, a confirmed new name: kinds whose `reshapesHomeFeed` is true): the next `refresh`
    /// fetches the cached range again. A screen showing
    /// the cache refreshes when it appears while this is true.
    public var isBehindTheServer: Bool {
        get throws { try database.withConnection { db in try Self.unreconciled(db) > 0 } }
    }

    /// The entity tag of the first page last merged (the newest page fetched without a cursor),
    /// if the server sent one with it.
    static func firstPageTag(_ db: borrowing Connection) throws -> String? {
        try db.queryFirst("SELECT etag FROM feed_pages WHERE cursor IS NULL ORDER BY page DESC LIMIT 1") {
            row in
            try row.isNull(0) ? nil : try row.string(0)
        } ?? nil
    }

    /// How many confirmed follows and unfollows the cached entries do not reflect yet.
    static func unreconciled(_ db: borrowing Connection) throws -> Int64 {
        try db.queryFirst("SELECT unreconciled FROM feed_state WHERE id = 1") { try $0.int64(0) } ?? 0
    }

    /// Drops heights of entries no longer cached, or stored for a version the entry no longer has.
    static func dropStaleHeights(_ db: borrowing Connection) throws {
        try db.execute(
            """
            DELETE FROM feed_heights WHERE NOT EXISTS (
                SELECT 1 FROM feed_entries e WHERE e.entry_id = feed_heights.entry_id AND e.version = feed_heights.version)
            """)
    }

    /// After entries changed: counts them, bumps the entries revision, drops pages no entry
    /// comes from, and rebuilds every kept width's packed heights. Returns the count.
    static func finishEntriesChange(_ db: borrowing Connection, tail: String?, refreshedAt: Int64?) throws
        -> Int
    {
        let count = try db.queryFirst("SELECT COUNT(*) FROM feed_entries") { try $0.int(0) } ?? 0
        try db.execute(
            """
            UPDATE feed_state SET entries_revision = entries_revision + 1, count = ?, tail_cursor = ?,
                refreshed_at = COALESCE(?, refreshed_at) WHERE id = 1
            """, count, tail, refreshedAt)
        try db.execute("DELETE FROM feed_pages WHERE page NOT IN (SELECT DISTINCT page FROM feed_entries)")
        let widths = try db.query("SELECT width FROM feed_height_snapshots") { try $0.int(0) }
        for width in widths { try rebuildSnapshot(db, width: width, touch: false) }
        return count
    }

    /// Writes the packed heights of `width` for the current entries.
    static func rebuildSnapshot(_ db: borrowing Connection, width: Int, touch: Bool) throws {
        guard let state = try state(db) else { return }
        let body = HeightSnapshot.encode(try snapshotEntries(db, width: width))
        let touched: Int64
        if touch {
            touched = state.touched + 1
            try db.execute("UPDATE feed_state SET touched = ? WHERE id = 1", touched)
        } else {
            touched =
                try db.queryFirst("SELECT touched FROM feed_height_snapshots WHERE width = ?", width) {
                    try $0.int64(0)
                } ?? state.touched
        }
        try db.execute(
            "INSERT OR REPLACE INTO feed_height_snapshots (width, entries_revision, touched, body) VALUES (?, ?, ?, ?)",
            width, state.entriesRevision, touched, body)
    }

    /// Clears a cache written by another format of this code.
    static func checkFormat(_ db: borrowing Connection) throws {
        guard let state = try state(db), state.format != EntryCodec.format else { return }
        try clear(db)
    }

    static func clear(_ db: borrowing Connection) throws {
        try db.executeScript(
            """
            DELETE FROM feed_entries; DELETE FROM feed_pages;
            DELETE FROM feed_heights; DELETE FROM feed_height_snapshots;
            """)
        try db.execute(
            """
            UPDATE feed_state SET format = ?, entries_revision = entries_revision + 1, count = 0, tail_cursor = NULL,
                refreshed_at = NULL WHERE id = 1
            """, EntryCodec.format)
    }
}
