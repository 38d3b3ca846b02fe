import MediaModel
import Storage

extension FeedCache {
    /// Keeps the stored heights only if they were measured under `layout`, a key of how the
    /// app draws its entries (a fingerprint of the heights of sample posts, say): when the key
    /// differs from the one stored, every stored height is dropped, since a build that draws
    /// posts otherwise would seed heights that no longer match the lines; the entries stay. Call
    /// it before the first ``firstScreen(width:rows:)`` of a run. Returns whether heights were
    /// dropped.
    ///
    /// `source` says what `layout` was derived from (the build and the presentation), for
    /// ``layout(measuredUnder:)`` in the next launch; nil keeps the stored one when the key is
    /// the stored key (a key is the same whatever it was derived from).
    ///
    /// Complexity: one read when the key and its source are the stored ones.
    @discardableResult
    public func adoptLayout(_ layout: Int64, source: Int64?) throws -> Bool {
        let stored = try database.withConnection { db in
            try db.queryFirst("SELECT layout, layout_source FROM feed_state WHERE id = 1") {
                (try $0.int64(0), try $0.isNull(1) ? nil : $0.int64(1))
            }
        }
        guard let (storedLayout, storedSource) = stored else { return false }
        if storedLayout == layout {
            if let source, source != storedSource {
                try database.transaction { db in
                    try db.execute("UPDATE feed_state SET layout_source = ? WHERE id = 1", source)
                }
            }
            return false
        }
        try database.transaction { db in
            try db.executeScript("DELETE FROM feed_heights; DELETE FROM feed_height_snapshots;")
            try db.execute("UPDATE feed_state SET layout = ?, layout_source = ? WHERE id = 1", layout, source)
        }
        return true
    }

    /// ``adoptLayout(_:source:)`` without saying what the key was derived from.
    @discardableResult
    public func adoptLayout(_ layout: Int64) throws -> Bool {
        try adoptLayout(layout, source: nil)
    }

    /// The layout key stored by ``adoptLayout(_:source:)`` with `source`, or nil when the stored
    /// key was derived from something else (another build, another presentation) or from
    /// nothing said: then the caller derives the key again.
    ///
    /// Complexity: one read.
    public func layout(measuredUnder source: Int64) throws -> Int64? {
        try database.withConnection { db in
            try db.queryFirst(
                "SELECT layout FROM feed_state WHERE id = 1 AND layout_source = ? AND layout <> 0", source
            ) { try $0.int64(0) }
        }
    }

    /// Stores row heights a list computed at `width` (replacing any stored for other versions of
    /// the same entries) and rebuilds the width's packed heights, so the next cold start loads
    /// them all in one read. Only the `keptWidths` most recently stored widths are kept.
    ///
    /// - Throws: `FeedCacheError` when a height is outside 0...65535 or an entry has more than
    ///   254 rows.
    public func storeHeights(_ heights: [EntryHeights], width: Int) throws {
        for item in heights {
            guard item.rows.count < Int(HeightTable.unknown) else {
                throw FeedCacheError(
                    "entry '\(item.entryID)' has \(item.rows.count) rows at width \(width); at most 254 can be stored"
                )
            }
            guard item.rows.allSatisfy({ (0...Int(UInt16.max)).contains($0) }) else {
                throw FeedCacheError(
                    "entry '\(item.entryID)' has a row height outside 0...65535 at width \(width): \(item.rows)"
                )
            }
        }
        try database.transaction { db in
            let upsert = try db.prepare(
                "INSERT OR REPLACE INTO feed_heights (width, entry_id, version, rows) VALUES (?, ?, ?, ?)")
            for item in heights {
                var blob: [UInt8] = []
                blob.reserveCapacity(item.rows.count * 2)
                for row in item.rows {
                    blob.append(UInt8(truncatingIfNeeded: row))
                    blob.append(UInt8(truncatingIfNeeded: row >> 8))
                }
                try db.execute(
                    "DELETE FROM feed_heights WHERE width = ? AND entry_id = ? AND version <> ?", width,
                    item.entryID.rawValue, item.version)
                try upsert.execute { row in
                    try row.bind(width)
                    try row.bind(item.entryID.rawValue)
                    try row.bind(item.version)
                    try row.bind(blob)
                }
            }
            try Self.rebuildSnapshot(db, width: width, touch: true)
            let stale = try db.query(
                "SELECT width FROM feed_height_snapshots ORDER BY touched DESC LIMIT -1 OFFSET ?",
                Self.keptWidths
            ) { try $0.int(0) }
            for old in stale {
                try db.execute("DELETE FROM feed_height_snapshots WHERE width = ?", old)
                try db.execute("DELETE FROM feed_heights WHERE width = ?", old)
            }
        }
    }
}
