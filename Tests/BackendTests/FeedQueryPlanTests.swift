import Storage
import Testing
import Wire

@_spi(Testing) @testable import Backend

/// The feed walks posts and reposts newest first and skips those of accounts the viewer does
/// not follow (about two in three in the seed). Each skipped item must cost an index entry, not
/// a read of its row (a post's row holds its media JSON, about 2 KB): the walks use covering
/// indexes, so only the entries served are read from the tables.
@Suite struct FeedQueryPlanTests {
    @Test func feedWalks_readOnlyIndexesForTheItemsTheySkip() throws {
        // Given a seeded backend
        let server = try BackendServer.seededCopy(clock: ManualClock())
        defer { server.close() }

        // When SQLite plans the feed's query
        let plan = try server.core.database.withConnection { db in
            try db.query(
                "EXPLAIN QUERY PLAN " + BackendCore.feedSQL, Int64(1), Int64.max, Int64.max, Int64.max,
                Int64(21)
            ).map { try $0.string("detail") }
        }

        // Then both walks along time read a covering index, and nothing else scans a table
        let walks = plan.filter { $0.contains("_by_time") }
        #expect(
            walks == [
                "SEARCH p USING COVERING INDEX posts_by_time (created_at<?)",
                "SCAN r USING COVERING INDEX reposts_by_time",
            ], "\(plan)")
    }

    /// The rows of the outer query carry two posts' media JSON each (the entry's and its
    /// parent's): sorting them copies all of it into a temporary b-tree. The items are ranked and
    /// cut to the page before they are joined, and the handler puts the joined rows in that
    /// order, so the outer query sorts nothing.
    @Test func feedQuery_sortsOnlyTheItems_neverTheRowsWithMediaJSON() throws {
        // Given a seeded backend
        let server = try BackendServer.seededCopy(clock: ManualClock())
        defer { server.close() }

        // When SQLite plans the feed's query
        let plan = try server.core.database.withConnection { db in
            try db.query(
                "EXPLAIN QUERY PLAN " + BackendCore.feedSQL, Int64(1), Int64.max, Int64.max, Int64.max,
                Int64(21)
            ).map { (parent: try $0.int("parent"), detail: try $0.string("detail")) }
        }

        // Then no step of the outer query (parent 0) is a sort
        let outer = plan.filter { $0.parent == 0 }.map(\.detail)
        #expect(!outer.contains { $0.contains("TEMP B-TREE") }, "\(outer)")
        #expect(outer.contains("SCAN i"), "\(outer)")
    }
}
