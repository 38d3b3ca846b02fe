import Foundation
import MediaModel
import Storage
import Wire

/// The home feed kept in the app's SQLite database, so a launch shows it before any network
/// call: pages of entries with their media, the facts of that media, the cursors to load more,
/// and the row heights a list computed, per width.
///
/// ```swift
/// let cache = FeedCache(database: database, mediaStore: store, fetch: { cursor throws(TransportError) in
///     try await client.homeFeed(cursor: cursor)
/// })
/// let first = try cache.firstScreen(width: 80, rows: 24)   // no network
/// show(first.entries, heights: first.heights)
/// let merge = try await cache.refresh()                   // new entries on top
/// ```
///
/// Cold start reads one row and the first screen's entries: the state joined with the packed
/// heights of every entry at the width (one blob, in feed order), then only as many entries as
/// fill `rows`. Entries are stored in a compact binary form; refresh and load-more rebuild the
/// packed heights in the same transaction, so a cold start never sees them out of date.
///
/// Threading: `Sendable`; every call runs on the caller's thread against the shared
/// `Database` (serialized). `refresh` and `loadMore` run on the concurrent pool.
public final class FeedCache: Sendable {
    /// Loads one page of the home feed: nil for the first page, else the previous page's cursor.
    public typealias Fetch = @Sendable (_ cursor: String?) async throws(TransportError) -> FeedPageEnvelope
    /// Loads the first page of the home feed unless it is still the one `etag` names (HTTP's
    /// `If-None-Match`): nil when the server says it is (304).
    public typealias FetchIfChanged =
        @Sendable (_ etag: String) async throws(TransportError) -> FeedPageEnvelope?

    /// The database holding the cache (the app's database).
    public let database: Database
    /// Where the facts of cached and fetched media go.
    public let mediaStore: MediaStore
    /// The clock fetch times are stamped with.
    public let clock: any WallClock
    private let fetch: Fetch?
    private let fetchIfChanged: FetchIfChanged?

    /// The most widths whose heights are kept (least recently stored ones are dropped).
    public static let keptWidths = 6

    /// Makes a cache over a migrated app database (`AppDatabase.open`).
    ///
    /// - Parameters:
    ///   - database: the app database, opened and migrated by `AppDatabase.open`.
    ///   - mediaStore: where the facts of cached and fetched media go.
    ///   - clock: the clock fetch times are stamped with.
    ///   - fetch: how `refresh` and `loadMore` get pages; nil for a cache that is only read and
    ///     merged into directly.
    ///   - fetchIfChanged: how `refresh` asks for the first page only if it changed since the
    ///     cache stored it (its entity tag); nil always fetches it. Pass it by its label: a
    ///     trailing closure is `fetch`.
    public init(
        database: Database, mediaStore: MediaStore, clock: any WallClock = SystemClock(),
        fetch: Fetch? = nil, fetchIfChanged: FetchIfChanged? = nil
    ) {
        self.database = database
        self.mediaStore = mediaStore
        self.clock = clock
        self.fetchIfChanged = fetchIfChanged
        self.fetch = fetch
    }

    // MARK: - Reading

    /// The first screen of the cached feed at `width`, without any network call: enough entries
    /// from the top to fill `rows` screen rows (sized by their cached heights; an entry of
    /// unknown height counts as one row), the heights of every cached entry, and the facts of
    /// the loaded entries' media applied to the media store.
    ///
    /// Complexity: O(k) entries decoded for the k that fill the screen, plus O(n) to unpack the
    /// n entries' heights from one blob.
    public func firstScreen(width: Int, rows: Int) throws -> FirstScreen {
        let (screen, facts) = try database.withConnection { db -> (FirstScreen, [MediaID: MediaFacts]) in
            guard let (state, snapshot) = try Self.stateAndSnapshot(db, width: width),
                state.format == EntryCodec.format, state.count > 0
            else {
                return (
                    FirstScreen(
                        entries: [], heights: HeightTable(width: width, unknownCount: 0), totalCount: 0,
                        tailCursor: nil),
                    [:]
                )
            }
            let heights = try Self.heightTable(db, width: width, state: state, snapshot: snapshot)
            let (entries, facts) = try Self.entries(db, from: 0, count: heights.entriesFilling(rows: rows))
            return (
                FirstScreen(
                    entries: entries, heights: heights, totalCount: state.count, tailCursor: state.tailCursor),
                facts
            )
        }
        mediaStore.apply(facts)
        return screen
    }

    /// `count` cached entries from `index` (0 = top), for scrolling past the first screen; their
    /// media's cached facts are applied to the media store.
    public func entries(from index: Int, count: Int) throws -> [CachedEntry] {
        let (entries, facts) = try database.withConnection { db in
            try Self.entries(db, from: Swift.max(index, 0), count: Swift.max(count, 0))
        }
        mediaStore.apply(facts)
        return entries
    }

    /// A media the cached feed shows, as a post or as a reply's parent; nil when no cached entry
    /// shows it. For naming what a change is about ("like · @mary · ...") without a network call.
    ///
    /// Complexity: one indexed lookup, one entry decoded.
    public func media(_ id: MediaID) throws -> Media? {
        try database.withConnection { db -> Media? in
            let body = try db.queryFirst(
                """
                SELECT body, media_id = ?1 FROM feed_entries WHERE media_id = ?1 OR parent_media_id = ?1
                ORDER BY media_id = ?1 DESC LIMIT 1
                """, id.rawValue
            ) { row in (try row.bytes(0), try row.int64(1) != 0) }
            guard let (bytes, isPost) = body, let entry = try? EntryCodec.decodeEntry(bytes) else {
                return nil
            }
            if isPost { return entry.media }
            if case .reply(let parent) = entry.context { return parent }
            return nil
        }
    }

    /// Every cached entry's heights at `width`, in feed order.
    public func heights(width: Int) throws -> HeightTable {
        try database.withConnection { db in
            guard let (state, snapshot) = try Self.stateAndSnapshot(db, width: width),
                state.format == EntryCodec.format
            else {
                return HeightTable(width: width, unknownCount: 0)
            }
            return try Self.heightTable(db, width: width, state: state, snapshot: snapshot)
        }
    }

    /// How many entries the cache holds.
    public var count: Int {
        get throws { try database.withConnection { db in try Self.state(db)?.count ?? 0 } }
    }

    /// The cursor of the page after the last cached entry, if any.
    public var tailCursor: String? {
        get throws { try database.withConnection { db in try Self.state(db)?.tailCursor } }
    }

    // MARK: - Fetching

    /// Fetches the feed's newest entries and merges them in (`merge(firstPage:)`); the media
    /// store gets their facts.
    ///
    /// When the first page holds only entries the cache has never seen (more new entries than a
    /// page), it keeps fetching pages, up to `maximumPages`, until one reaches a cached entry, so
    /// the new entries join the cached ones without a gap and what the viewer was reading stays.
    ///
    /// After a confirmed follow or unfollow (`markFollowsChanged`), the server's feed differs all
    /// the way down, not only at its top: this refresh then reconciles the cache instead. It
    /// fetches pages from the top until they reach the last cached entry or hold as many entries
    /// as the cache did (at most `maximumPages`), and the cache becomes those pages, with the
    /// last one's cursor to load more: the followed account's posts stand in place by time, an
    /// unfollowed account's are gone, and entries cached below the pages fetched are dropped, to
    /// load again from the server.
    ///
    /// - Throws: the fetch's `TransportError` (the cache is left as it was, still to reconcile),
    ///   or a storage error.
    /// - Complexity: one request, or a few while the new entries fill pages; a reconcile costs
    ///   ⌈n / page size⌉ requests for n cached entries, at most `maximumPages`, once per follow
    ///   or unfollow.
    @concurrent @discardableResult
    public func refresh(maximumPages: Int = 10) async throws -> FeedMerge {
        guard let fetch else {
            throw FeedCacheError("this feed cache was made without a fetch; pass one to refresh")
        }
        let (order, unreconciled, etag) = try database.withConnection { db in
            (try Self.positions(db).map(\.id), try Self.unreconciled(db), try Self.firstPageTag(db))
        }
        let limit = Swift.max(maximumPages, 1)
        var pages: [FeedPageEnvelope] = []
        var cursor: String?
        // Nothing to reconcile, and the first page as stored has a tag: ask only for a change.
        if unreconciled == 0, !order.isEmpty, let etag, let fetchIfChanged {
            guard let first = try await fetchIfChanged(etag) else {
                let state = try database.withConnection { db in try Self.state(db) }
                return FeedMerge(
                    count: state?.count ?? order.count, tailCursor: state?.tailCursor, unchanged: true)
            }
            pages.append(first)
            if first.payload.entries.contains(where: { Set(order).contains($0.id.rawValue) }) {
                return try merge(first, replacingAll: false, reconciled: 0)
            }
            cursor = first.payload.nextCursor
            guard cursor != nil else { return try merge(first, replacingAll: false, reconciled: 0) }
        }
        if unreconciled > 0, let last = order.last {
            var fetched = 0
            repeat {
                let page = try await fetch(cursor)
                pages.append(page)
                fetched += page.payload.entries.count
                let reachesLast = page.payload.entries.contains { $0.id.rawValue == last }
                if fetched >= order.count || reachesLast { break }
                cursor = page.payload.nextCursor
            } while cursor != nil && pages.count < limit
            return try merge(Self.joined(pages), replacingAll: true, reconciled: unreconciled)
        }
        let cached = Set(order)
        while pages.count < limit {
            let page = try await fetch(cursor)
            pages.append(page)
            if cached.isEmpty || page.payload.entries.contains(where: { cached.contains($0.id.rawValue) }) {
                break
            }
            cursor = page.payload.nextCursor
            if cursor == nil { break }
        }
        return try merge(Self.joined(pages), replacingAll: false, reconciled: unreconciled)
    }

    /// Consecutive pages as one: their entries in order (each once), their facts, and the last
    /// page's cursor.
    static func joined(_ pages: [FeedPageEnvelope]) -> FeedPageEnvelope {
        guard var combined = pages.first, pages.count > 1 else {
            return pages.first ?? FeedPageEnvelope(FeedPage(entries: []))
        }
        var seen = Set(combined.payload.entries.map(\.id))
        for page in pages.dropFirst() {
            combined.payload.entries += page.payload.entries.filter { seen.insert($0.id).inserted }
            combined.payload.nextCursor = page.payload.nextCursor
            combined.facts.merge(page.facts) { _, newer in newer }
        }
        return combined
    }

    /// Fetches the page after `cursor` (normally `tailCursor`) and appends it (`append(_:)`).
    @concurrent @discardableResult
    public func loadMore(cursor: String) async throws -> FeedMerge {
        guard let fetch else {
            throw FeedCacheError("this feed cache was made without a fetch; pass one to load more")
        }
        return try append(try await fetch(cursor), after: cursor)
    }

    // MARK: - Internals shared by the aspects

    struct State {
        var format: Int64
        var entriesRevision: Int64
        var touched: Int64
        var count: Int
        var tailCursor: String?
        var viewer: String
    }

    static func state(_ db: borrowing Connection) throws -> State? {
        try db.queryFirst(
            "SELECT format, entries_revision, touched, count, tail_cursor, viewer FROM feed_state WHERE id = 1"
        ) { row in
            State(
                format: try row.int64(0), entriesRevision: try row.int64(1),
                touched: try row.int64(2), count: try row.int(3),
                tailCursor: try row.isNull(4) ? nil : try row.string(4), viewer: try row.string(5))
        }
    }

    /// The state and, when one exists, the packed heights of `width`, in one read.
    static func stateAndSnapshot(_ db: borrowing Connection, width: Int) throws -> (State, (Int64, [UInt8])?)?
    {
        try db.queryFirst(
            """
            SELECT s.format, s.entries_revision, s.touched, s.count, s.tail_cursor, s.viewer, h.entries_revision, h.body
            FROM feed_state s LEFT JOIN feed_height_snapshots h ON h.width = ? WHERE s.id = 1
            """, width
        ) { row in
            let state = State(
                format: try row.int64(0), entriesRevision: try row.int64(1),
                touched: try row.int64(2), count: try row.int(3),
                tailCursor: try row.isNull(4) ? nil : try row.string(4), viewer: try row.string(5))
            return (state, try row.isNull(6) ? nil : (try row.int64(6), try row.bytes(7)))
        }
    }

    static func heightTable(_ db: borrowing Connection, width: Int, state: State) throws -> HeightTable {
        let snapshot = try db.queryFirst(
            "SELECT entries_revision, body FROM feed_height_snapshots WHERE width = ?", width
        ) { row in (try row.int64(0), try row.bytes(1)) }
        return try heightTable(db, width: width, state: state, snapshot: snapshot)
    }

    static func heightTable(
        _ db: borrowing Connection, width: Int, state: State, snapshot: (Int64, [UInt8])?
    ) throws -> HeightTable {
        if let snapshot, snapshot.0 == state.entriesRevision {
            do {
                return try HeightSnapshot.decode(snapshot.1, width: width)
            } catch {
                throw FeedCacheError(
                    "the cached heights for width \(width) could not be read (\(error)); clear the cache")
            }
        }
        guard snapshot != nil else { return HeightTable(width: width, unknownCount: state.count) }
        // A snapshot from another revision cannot happen through this API; rebuild it in memory.
        return try HeightSnapshot.decode(
            HeightSnapshot.encode(snapshotEntries(db, width: width)), width: width)
    }

    /// `count` entries from `index`, with the cached facts of the media they show, in one read.
    static func entries(_ db: borrowing Connection, from index: Int, count: Int) throws -> (
        [CachedEntry], [MediaID: MediaFacts]
    ) {
        guard count > 0 else { return ([], [:]) }
        var entries: [CachedEntry] = []
        var facts: [MediaID: MediaFacts] = [:]
        entries.reserveCapacity(Swift.min(count, 256))
        var position = index
        try db.forEach(
            """
            SELECT version, body, media_id, media_facts, parent_media_id, parent_facts, entry_id FROM feed_entries
            ORDER BY position LIMIT ? OFFSET ?
            """, count, index
        ) { row in
            do {
                entries.append(
                    CachedEntry(
                        entry: try EntryCodec.decodeEntry(try row.bytes(1)), index: position,
                        version: try row.int64(0)))
            } catch {
                throw FeedCacheError(
                    "cached entry '\(try row.string(6))' could not be read (\(error)); the cache file is damaged: "
                        + "clear it (FeedCache.clear) and refresh")
            }
            for column in [3, 5] where !(try row.isNull(column)) {
                if let decoded = try? EntryCodec.decodeFacts(try row.bytes(column)) {
                    facts[MediaID(try row.string(column - 1))] = decoded
                }
            }
            position += 1
        }
        return (entries, facts)
    }

    /// Every entry's id, version and stored heights at `width`, in feed order.
    static func snapshotEntries(_ db: borrowing Connection, width: Int) throws -> [HeightSnapshot.Entry] {
        try db.query(
            """
            SELECT e.entry_id, e.version, h.rows FROM feed_entries e
            LEFT JOIN feed_heights h ON h.width = ? AND h.entry_id = e.entry_id AND h.version = e.version
            ORDER BY e.position
            """, width
        ) { row in
            HeightSnapshot.Entry(
                id: try row.string(0), version: try row.int64(1),
                rows: try row.isNull(2) ? nil : try row.bytes(2))
        }
    }
}
