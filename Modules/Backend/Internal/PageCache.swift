import Basics
import Storage
import Synchronization
import Wire

/// The answers of the read routes that show one viewer's page (the feed, a post, a thread, a
/// profile), kept while nothing has been written to the database, so that a client asking again
/// for an unchanged page costs a few lookups instead of its queries and its JSON.
///
/// Whether anything was written is the database's own word, read before every cached route
/// runs (`ChangeProbe`): SQLite's `data_version`, which moves when any connection of any
/// process commits, and PostgreSQL's current snapshot, which moves with any commit of any
/// server on it. So a page is never answered after a write that may change it, wherever that
/// write came from; any write forgets every page (a page shows counts, names and flags that
/// many writes touch, and a read-heavy session writes seldom).
///
/// An entry is a 200 response under the bearer token, the path and the query that asked for
/// it, so a hit needs no session lookup either: the token's session cannot have been revoked
/// without a write. Its expiry, which needs no write, is kept with the entry and checked
/// against the clock. A hit answers 304 when the request already holds the page's tag.
///
/// Bounded: at most `entryLimit` pages and `byteLimit` bytes of bodies, the oldest stored
/// forgotten first.
final class PageCache: Sendable {
    struct Key: Hashable, Sendable {
        var token: String
        var path: String
        var query: [QueryItem]
    }

    private struct Entry: Sendable {
        var response: Response
        var expiresAt: Int64
    }

    private struct State: Sendable {
        var version: Int64 = .min
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were stored, for evicting the oldest (some may be gone).
        var order: [Key] = []
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    static let entryLimit = 256
    static let byteLimit = 16 << 20

    private let probe: ChangeProbe
    private let state = Mutex(State())
    /// Whether pages are kept (a bench turns it off to measure pages built).
    let enabled = Atomic<Bool>(true)

    init(probe: ChangeProbe) { self.probe = probe }

    /// The database's change version now, or nil when it cannot be read or the cache is off
    /// (nothing is cached then).
    func version() -> Int64? { enabled.load(ordering: .relaxed) ? probe.version() : nil }

    /// The page stored under `key` at `version` whose token is still unexpired at `now`.
    func page(_ key: Key, version: Int64, now: Int64) -> Response? {
        state.withLock { state in
            guard state.version == version, let entry = state.entries[key], entry.expiresAt > now else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.response
        }
    }

    /// Stores `response` (a 200) under `key`, as the database was at `version` (read before the
    /// response's read began). Another version than the pages held forgets them all: versions
    /// are compared for equality only (a store racing a write may forget newer pages, never keep
    /// a stale one, as a lookup's version must equal the entry's).
    func store(_ response: Response, _ key: Key, version: Int64, expiresAt: Int64) {
        guard response.status == 200, response.body.count <= Self.byteLimit / 8 else { return }
        state.withLock { state in
            if version != state.version {
                state.version = version
                state.entries.removeAll(keepingCapacity: true)
                state.order.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if let old = state.entries.updateValue(
                Entry(response: response, expiresAt: expiresAt), forKey: key)
            {
                state.bytes -= old.response.body.count
            } else {
                state.order.append(key)
            }
            state.bytes += response.body.count
            var evicted = 0
            while state.entries.count > Self.entryLimit || state.bytes > Self.byteLimit,
                evicted < state.order.count
            {
                let oldest = state.order[evicted]
                evicted += 1
                if let gone = state.entries.removeValue(forKey: oldest) {
                    state.bytes -= gone.response.body.count
                }
            }
            if evicted > 0 { state.order.removeFirst(evicted) }
        }
    }

    /// Forgets every page and closes the probe's connection; nothing is cached from now on.
    func close() {
        probe.close()
        state.withLock { $0 = State() }
    }

    /// Hits and misses so far, and the pages held.
    var statistics: (hits: Int, misses: Int, pages: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entries.count) }
    }
}

/// Reads a number that changes whenever anything is committed to the database, by this
/// process or another, on a read-only connection of its own (opened on first use).
///
/// - SQLite: `PRAGMA data_version`, which a connection sees move when any other connection
///   commits (this one never writes).
/// - PostgreSQL: a hash of `pg_current_snapshot()` (the next transaction id and those still
///   running), which every commit changes and reads leave alone. (The WAL position would move
///   with reads too: pruning and hint bits write it.)
///
/// Read before a response's own read transaction begins, so the data the response shows is at
/// least as new as the version it is stored under.
final class ChangeProbe: Sendable {
    private struct State {
        var connection: Database?
        var closed = false
    }

    private let open: @Sendable () throws -> Database
    private let state = Mutex(State())

    init(open: @escaping @Sendable () throws -> Database) { self.open = open }

    /// The version, or nil when the connection cannot be opened or read, or the probe is closed.
    func version() -> Int64? {
        state.withLock { state -> Int64? in
            guard !state.closed else { return nil }
            do {
                let database = try state.connection ?? open()
                state.connection = database
                if database.dialect == .sqlite {
                    return try database.queryFirst("PRAGMA data_version") { row in try row.int64(0) }
                }
                return try database.queryFirst("SELECT pg_current_snapshot()::text") { row in
                    Int64(bitPattern: FNV1a.hash(try row.string(0).utf8))
                }
            } catch {
                // A connection that failed is opened again next time; meanwhile nothing is cached.
                try? state.connection?.close()
                state.connection = nil
                return nil
            }
        }
    }

    /// Closes the connection; `version` is nil from now on.
    func close() {
        state.withLock { state in
            state.closed = true
            try? state.connection?.close()
            state.connection = nil
        }
    }
}
