import Foundation
import MediaModel
import PostgresStorage
import PostgresTesting
import Storage
import Testing
import Wire

@_spi(Testing) @testable import Backend

/// The feed walks its items newest first and skips those of accounts the viewer does not follow
/// (about two in three in the seed). The walk is one indexed cursor (issue 36): `feed_items`'s
/// key, read backward from the cursor, each skipped item an entry of it and never a row of
/// `posts` (a post's row holds its media JSON, about 2 KB), with no sort.
@Suite struct FeedQueryPlanTests {
    @Test func feedWalk_isOneIndexedCursor_readingNoPostForTheItemsItSkips() throws {
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

        // Then one step walks the items, along feed_items' key from the cursor; nothing sorts,
        // and nothing scans a table
        let walks = plan.filter { $0.hasPrefix("SEARCH f ") || $0.contains("_by_time") }
        #expect(walks == ["SEARCH f USING PRIMARY KEY ((t,src,item)<(?,?,?))"], "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        #expect(
            !plan.contains { $0.hasPrefix("SCAN p") || $0.hasPrefix("SCAN r") || $0.hasPrefix("SCAN f") },
            "\(plan)")
    }

    /// On PostgreSQL the walk is an index-only scan of the same key, backward.
    @Test func feedWalk_onPostgres_isAnIndexOnlyScanOfTheItemsKey() throws {
        let url = try SharedPostgres.newDatabaseURL("feed_plan")
        let server = try BackendFixture.onPostgres(url)
        defer { server.close() }
        let plan = try server.core.database.withConnection { db in
            try db.query(
                "EXPLAIN " + BackendCore.feedPostgres, Int64(1), Int64.max, Int64.max, Int64.max, Int64(21)
            ).map { try $0.string(0) }
        }.joined(separator: "\n")
        #expect(plan.contains("Index Only Scan Backward using feed_items_pkey on feed_items f"), "\(plan)")
        #expect(!plan.contains("posts_by_time") && !plan.contains("reposts_by_time"), "\(plan)")
        #expect(!plan.contains("Sort"), "\(plan)")
    }

    /// A database made before the items' table gets them from its posts and reposts: the same
    /// pages, byte for byte, before and after the migration.
    @Test func anOlderDatabase_getsItsFeedItemsFromItsPostsAndReposts() async throws {
        let server = try BackendServer.seededCopy(clock: ManualClock())
        let directory = (server.databasePath as NSString).deletingLastPathComponent
        let token = server.testToken(forHandle: "ada")
        func pages(_ server: BackendServer) async -> [Data] {
            var pages: [Data] = []
            var cursor: String?
            repeat {
                var query = [QueryItem("limit", "50")]
                if let cursor { query.append(QueryItem("cursor", cursor)) }
                let page = await server.handle(
                    Request(.get, "/v1/feed", query: query, headers: ["Authorization": "Bearer \(token)"]))
                pages.append(page.body)
                cursor = page.json["page", "nextCursor"].stringValue
            } while cursor != nil && pages.count < 40
            return pages
        }
        let before = await pages(server)
        try server.core.database.withConnection { db in
            try db.executeScript(
                """
                DROP TABLE feed_items;
                DROP TRIGGER feed_items_post_added; DROP TRIGGER feed_items_post_deleted;
                DROP TRIGGER feed_items_post_removed; DROP TRIGGER feed_items_repost_added;
                DROP TRIGGER feed_items_repost_removed;
                PRAGMA user_version = 9;
                """)
        }
        server.close()
        let migrated = try BackendServer(directory: directory, clock: ManualClock())
        defer { migrated.close() }
        let after = await pages(migrated)
        #expect(before.count > 3)
        #expect(after == before)
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
