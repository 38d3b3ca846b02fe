import MediaModel
import Storage

extension FeedCache {
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
