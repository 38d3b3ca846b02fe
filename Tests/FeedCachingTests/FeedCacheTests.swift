@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import Networking
import NetworkingTesting
import ServerAPI
import Storage
import Testing
import Wire

@testable import FeedCaching

@Suite struct FeedCacheTests {
    @Test func secondLaunchOffline_showsTheCachedFeedWithItsFacts() async throws {
        // Given a first launch that refreshed the feed and stored heights
        let fixture = try NetworkFixture()
        let directory = try NetworkFixture.appDirectory()
        let first = try fixture.cache(in: directory)
        let merge = try await first.refresh()
        #expect(merge.inserted.count == 20)
        let fetched = try first.entries(from: 0, count: 20)
        try first.storeHeights(
            fetched.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [2, 6, 1]) }, width: 80)
        try first.database.close()

        // When the app launches again with the network down
        fixture.transport.setFaultProfile(.offline)
        let store = MediaStore()
        let second = try fixture.cache(in: directory, store: store)
        let screen = try second.firstScreen(width: 80, rows: 24)

        // Then the first screen comes from the cache: the same entries, heights and facts
        #expect(screen.totalCount == 20)
        #expect(screen.entries.map(\.entry) == Array(fetched.prefix(3)).map(\.entry))
        #expect(screen.heights.count == 20)
        #expect(screen.heights.rows(at: 19) == [2, 6, 1])
        let firstMedia = try #require(screen.entries.first?.entry.media.id)
        #expect(store.facts(for: firstMedia) != nil)
        #expect(screen.tailCursor == merge.tailCursor)
        // and the refresh fails as offline, leaving the cache as it was
        await #expect(throws: TransportError.self) { try await second.refresh() }
        #expect(try second.count == 20)
    }

    @Test func firstScreen_loadsOnlyTheEntriesThatFillIt() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory(), pageSize: 50)
        try await cache.refresh()
        let all = try cache.entries(from: 0, count: 50)
        try cache.storeHeights(
            all.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [4, 6]) }, width: 100)

        // 10 rows per entry: 24 rows need 3 entries; with no heights at a width, one row each.
        #expect(try cache.firstScreen(width: 100, rows: 24).entries.count == 3)
        #expect(try cache.firstScreen(width: 100, rows: 30).entries.count == 3)
        #expect(try cache.firstScreen(width: 100, rows: 31).entries.count == 4)
        let unknownWidth = try cache.firstScreen(width: 60, rows: 24)
        #expect(unknownWidth.entries.count == 24)
        #expect(unknownWidth.heights.knownCount == 0)
        #expect(unknownWidth.heights.count == 50)
        #expect(try cache.firstScreen(width: 100, rows: 10_000).entries.count == 50)
    }

    /// An app that does not show some entries (a photo-first app and text posts) stores them as
    /// taking no rows: the first screen reads past them to entries that fill the screen, rather
    /// than counting each as a row and leaving the bottom of the first frame empty.
    @Test func firstScreen_countsEntriesOfNoRowsAsNone() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory(), pageSize: 50)
        try await cache.refresh()
        let all = try cache.entries(from: 0, count: 50)
        // The first of every three is shown (18 rows), the two after it are not.
        try cache.storeHeights(
            all.enumerated().map { index, entry in
                EntryHeights(entryID: entry.id, version: entry.version, rows: index % 3 == 0 ? [17, 1] : [])
            }, width: 80)

        let screen = try cache.firstScreen(width: 80, rows: 20)
        #expect(screen.heights.height(at: 1) == 0, "a stored entry of no rows reads back as none")
        #expect(screen.entries.count == 4, "18 rows, two hidden, then the next shown entry")
        #expect(try cache.firstScreen(width: 80, rows: 18).entries.count == 1)
        #expect(try cache.firstScreen(width: 80, rows: 37).entries.count == 7)
    }

    /// A snapshot's header holds counts past 255 and 65,535 (ids of 300 entries take more than
    /// 256 bytes): every byte of each count is read back, so a cold start reads its heights.
    @Test func heightsOfManyEntries_areReadBackFromTheirSnapshot() throws {
        let database = try AppDatabase.open(directory: try NetworkFixture.appDirectory())
        let cache = FeedCache(database: database, mediaStore: MediaStore())
        let entries = (1...300).map { FeedEntry(id: FeedEntryID("p\($0)"), media: Samples.media("m\($0)")) }
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: entries, nextCursor: "tail")))
        let cached = try cache.entries(from: 0, count: 300)
        try cache.storeHeights(
            cached.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [2, 3]) }, width: 80)

        let reopened = FeedCache(database: database, mediaStore: MediaStore())
        let heights = try reopened.heights(width: 80)
        #expect(heights.knownCount == 300)
        #expect(heights.knownHeight == 1500)
        #expect(heights.entryID(at: 299) == cached[299].id)
        #expect(try reopened.firstScreen(width: 80, rows: 24).heights.knownCount == 300)
    }

    @Test func heights_areStoredAndLoadedPerWidth() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        try await cache.refresh()
        let entries = try cache.entries(from: 0, count: 20)
        try cache.storeHeights(
            entries.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [3]) }, width: 80)
        try cache.storeHeights(
            entries.prefix(5).map { EntryHeights(entryID: $0.id, version: $0.version, rows: [1, 1]) },
            width: 120)

        let narrow = try cache.heights(width: 80)
        let wide = try cache.heights(width: 120)
        #expect(narrow.knownCount == 20)
        #expect(narrow.knownHeight == 60)
        #expect(wide.knownCount == 5)
        #expect(wide.rows(at: 4) == [1, 1])
        #expect(wide.rows(at: 5) == nil)
        #expect(narrow.entryID(at: 7) == entries[7].id)
        #expect(narrow.version(at: 7) == entries[7].version)
        #expect(narrow.rows(for: entries[7].id, version: entries[7].version) == [3])
        #expect(narrow.rows(for: entries[7].id, version: entries[7].version &+ 1) == nil)
    }

    @Test func heightTables_areEqualByTheirHeightsAndIds_notByHowTheyWereMade() {
        #expect(HeightTable(width: 80, unknownCount: 2) == HeightTable(width: 80, unknownCount: 2))
        #expect(HeightTable(width: 80, unknownCount: 2) != HeightTable(width: 80, unknownCount: 3))
        #expect(HeightTable(width: 80, unknownCount: 2) != HeightTable(width: 81, unknownCount: 2))
        #expect(
            Set([HeightTable(width: 80, unknownCount: 2), HeightTable(width: 80, unknownCount: 2)]).count == 1
        )
    }

    @Test func positions_findEveryEntry_asTheLookupByIdDoes() async throws {
        // Given heights stored for 20 entries at one width
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        try await cache.refresh()
        let entries = try cache.entries(from: 0, count: 20)
        try cache.storeHeights(
            entries.enumerated().map { EntryHeights(entryID: $1.id, version: $1.version, rows: [$0 + 1]) },
            width: 80)
        let table = try cache.heights(width: 80)
        // When the table's positions are made once
        let positions = table.positions
        // Then each entry is at its place in the feed, and its rows through the position are the
        // rows the lookup by id finds, for its version and for no other
        #expect(positions.count == 20)
        for (index, entry) in entries.enumerated() {
            #expect(positions[entry.id] == index)
            let position = try #require(positions[entry.id])
            #expect(table.rows(at: position, version: entry.version) == [index + 1])
            #expect(
                table.rows(at: position, version: entry.version)
                    == table.rows(for: entry.id, version: entry.version))
            #expect(table.rows(at: position, version: entry.version &+ 1) == nil)
        }
    }

    @Test func heightsForAStaleVersion_areNotServed() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        try await cache.refresh()
        let entry = try #require(try cache.entries(from: 0, count: 1).first)
        try cache.storeHeights(
            [EntryHeights(entryID: entry.id, version: entry.version &+ 1, rows: [9])], width: 80)
        #expect(try cache.heights(width: 80).rows(at: 0) == nil)
        try cache.storeHeights(
            [EntryHeights(entryID: entry.id, version: entry.version, rows: [9])], width: 80)
        #expect(try cache.heights(width: 80).rows(at: 0) == [9])
    }

    /// A build that draws posts otherwise (another layout key) must not be seeded with the
    /// heights the last build measured: the posts would be cut off or drawn over each other.
    @Test func heightsMeasuredUnderAnotherLayout_areDropped_andTheEntriesKept() async throws {
        let fixture = try NetworkFixture()
        let directory = try NetworkFixture.appDirectory()
        let cache = try fixture.cache(in: directory)
        try await cache.refresh()
        #expect(try cache.adoptLayout(41) == true)
        let entries = try cache.entries(from: 0, count: 20)
        try cache.storeHeights(
            entries.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [3]) }, width: 80)
        try cache.storeHeights(
            entries.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [2]) }, width: 120)

        // The same layout on the next launch keeps them.
        try cache.database.close()
        let same = try fixture.cache(in: directory)
        #expect(try same.adoptLayout(41) == false)
        #expect(try same.firstScreen(width: 80, rows: 24).heights.knownCount == 20)

        // Another layout drops them at every width, and keeps the entries.
        #expect(try same.adoptLayout(42) == true)
        let screen = try same.firstScreen(width: 80, rows: 24)
        #expect(screen.heights.knownCount == 0)
        #expect(screen.totalCount == 20)
        #expect(try same.heights(width: 120).knownCount == 0)
        #expect(try same.adoptLayout(42) == false)
    }

    /// A launch of the same build reads the layout key back under what it was derived from
    /// (`layout(measuredUnder:)`) instead of drawing sample posts again; another build or
    /// presentation (another source) finds none and derives it. A key that is the stored one
    /// under a new source keeps the heights and records the source.
    @Test func aLayoutKeyIsReadBack_onlyUnderTheSourceItWasAdoptedWith() async throws {
        let fixture = try NetworkFixture()
        let directory = try NetworkFixture.appDirectory()
        let cache = try fixture.cache(in: directory)
        try await cache.refresh()
        #expect(try cache.layout(measuredUnder: 7) == nil)
        #expect(try cache.adoptLayout(41, source: 7) == true)
        let entries = try cache.entries(from: 0, count: 20)
        try cache.storeHeights(
            entries.map { EntryHeights(entryID: $0.id, version: $0.version, rows: [3]) }, width: 80)

        try cache.database.close()
        let next = try fixture.cache(in: directory)
        #expect(try next.layout(measuredUnder: 7) == 41)
        #expect(try next.layout(measuredUnder: 8) == nil)

        // Another build derived the same key: the heights stay, and the new source reads it back.
        #expect(try next.adoptLayout(41, source: 8) == false)
        #expect(try next.firstScreen(width: 80, rows: 24).heights.knownCount == 20)
        #expect(try next.layout(measuredUnder: 8) == 41)
        #expect(try next.layout(measuredUnder: 7) == nil)

        // A key adopted without a source keeps the stored source only while the key is the same.
        #expect(try next.adoptLayout(41) == false)
        #expect(try next.layout(measuredUnder: 8) == 41)
        #expect(try next.adoptLayout(42) == true)
        #expect(try next.layout(measuredUnder: 8) == nil)
    }

    /// A refresh that finds nothing new costs a 304: no body, nothing written, and the merge says
    /// so, so a list showing the cache neither merges nor redraws. Once the feed changes, the
    /// next refresh gets the page again.
    @Test func aRefreshOfAnUnchangedFeed_is304_andWritesNothing() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        let first = try await cache.refresh()
        #expect(!first.unchanged && first.inserted.count == 20)
        let revision = try cache.database.queryFirst("SELECT entries_revision FROM feed_state") {
            try $0.int64(0)
        }
        let sent = fixture.transport.statistics.requests

        let second = try await cache.refresh()

        #expect(second.unchanged)
        #expect(second.inserted.isEmpty && second.updated.isEmpty && second.removed.isEmpty)
        #expect(second.count == 20 && second.tailCursor == first.tailCursor)
        #expect(fixture.transport.statistics.requests == sent + 1)
        #expect(
            try cache.database.queryFirst("SELECT entries_revision FROM feed_state") { try $0.int64(0) }
                == revision)

        // When a followed account posts, the next refresh brings it
        let followed = try #require(
            try fixture.server.database.queryFirst(
                "SELECT u.handle FROM follows f JOIN users u ON u.id = f.followee WHERE f.follower = 1 LIMIT 1"
            ) { try $0.string(0) })
        _ = await fixture.server.handle(
            Request(
                .post, "/v1/posts",
                headers: [
                    "Authorization": "Bearer \(fixture.server.testToken(forHandle: followed))",
                    "Idempotency-Key": "new-1",
                ], body: Data(#"{"text": "fresh"}"#.utf8)))
        let third = try await cache.refresh()
        #expect(!third.unchanged && third.inserted.count == 1)
        #expect(try await cache.refresh().unchanged)
    }

    @Test func refresh_putsNewEntriesOnTopWithoutDuplicates() async throws {
        // Given a cached feed, and a followee who posts twice afterwards
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        try await cache.refresh()
        let before = try cache.entries(from: 0, count: 20).map(\.id)
        let followee = fixture.client.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        let followed = try await fixture.client.profile("u2").payload.viewerFollows
        let poster = followed ? followee : fixture.client
        fixture.clock.advance(by: .seconds(5))
        let one = try await poster.send(.post(text: "one", attachments: []), clientToken: "n1")
        fixture.clock.advance(by: .seconds(5))
        let two = try await poster.send(.post(text: "two", attachments: []), clientToken: "n2")

        // When the feed is refreshed
        let merge = try await cache.refresh()

        // Then the two posts are on top, everything else follows once, in order
        let after = try cache.entries(from: 0, count: 100).map(\.id)
        let newIDs = [two, one].compactMap { $0.payload.media?.id.rawValue }.map {
            FeedEntryID("p" + $0.dropFirst())
        }
        #expect(merge.inserted == newIDs)
        #expect(!merge.didReset)
        #expect(Array(after.prefix(2)) == newIDs)
        #expect(Array(after.dropFirst(2)) == before)
        #expect(Set(after).count == after.count)
    }

    @Test func refreshWithMoreNewEntriesThanAPage_fetchesOnUntilItReachesTheCache() async throws {
        // Given a cached feed, and 45 new posts by a followee (more than two pages of 20)
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory())
        try await cache.refresh()
        let before = try cache.entries(from: 0, count: 20).map(\.id)
        let grace = fixture.client.signedIn(as: fixture.server.testToken(forHandle: "grace"))
        for index in 0..<45 {
            fixture.clock.advance(by: .seconds(1))
            _ = try await grace.send(
                .post(text: "new \(index)", attachments: []), clientToken: "many-\(index)")
        }

        // When the feed is refreshed
        let merge = try await cache.refresh()

        // Then the new entries sit on top of the old ones, with no gap and no reset
        let after = try cache.entries(from: 0, count: 100).map(\.id)
        #expect(!merge.didReset)
        #expect(merge.inserted.count == 45)
        #expect(Array(after.prefix(45)) == merge.inserted)
        #expect(Array(after.dropFirst(45).prefix(before.count)) == before)
    }

    @Test func loadMore_appendsFromTheTailCursorToTheEnd() async throws {
        let fixture = try NetworkFixture()
        let cache = try fixture.cache(in: try NetworkFixture.appDirectory(), pageSize: 100)
        try await cache.refresh()
        var loads = 0
        while let cursor = try cache.tailCursor, loads < 100 {
            try await cache.loadMore(cursor: cursor)
            loads += 1
        }
        let all = try cache.entries(from: 0, count: 10_000).map(\.id)
        var expected: [FeedEntryID] = []
        var cursor: String?
        repeat {
            let page = try await fixture.client.homeFeed(cursor: cursor, limit: 100)
            expected += page.payload.entries.map(\.id)
            cursor = page.payload.nextCursor
        } while cursor != nil
        #expect(loads > 3)
        #expect(all == expected)
        #expect(try cache.count == expected.count)
        #expect(try cache.tailCursor == nil)
    }

    @Test func aFirstPageThatDoesNotReachTheCache_resetsIt() throws {
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        let old = Samples.everyShape
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: old, nextCursor: "old")))
        let fresh = [
            FeedEntry(id: "p100", media: Samples.media("m100")),
            FeedEntry(id: "p101", media: Samples.media("m101")),
        ]
        let merge = try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: fresh, nextCursor: "new")))
        #expect(merge.didReset)
        #expect(merge.removed == old.map(\.id))
        #expect(try cache.entries(from: 0, count: 10).map(\.entry) == fresh)
        #expect(try cache.tailCursor == "new")
    }

    @Test func entriesGoneFromTheFirstPage_areDroppedAndChangedOnesUpdated() throws {
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        let entries = (1...6).map { FeedEntry(id: FeedEntryID("p\($0)"), media: Samples.media("m\($0)")) }
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: entries, nextCursor: "tail")))
        let edited = FeedEntry(id: "p2", media: Samples.media("m2", text: "edited"))
        // p3 vanished; p2 changed; p0 is new; p4 is the last overlap, p5 and p6 stay below.
        let page = [FeedEntry(id: "p0", media: Samples.media("m0")), entries[0], edited, entries[3]]
        let merge = try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: page, nextCursor: "mid")))
        #expect(merge.inserted == ["p0"])
        #expect(merge.updated == ["p2"])
        #expect(merge.removed == ["p3"])
        #expect(try cache.entries(from: 0, count: 10).map(\.id) == ["p0", "p1", "p2", "p4", "p5", "p6"])
        #expect(try cache.tailCursor == "tail")
    }

    @Test func everyShapeOfEntry_survivesTheCacheExactly() throws {
        let store = MediaStore()
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()), mediaStore: store)
        let entries = Samples.everyShape
        // Every fact MediaFacts.fields lists is set away from its default, so a fact added there
        // is checked to survive a restart without this test changing.
        let facts: [MediaID: MediaFacts] = ["m2": .everyFieldSet]
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: entries), facts: facts))
        let reread = FeedCache(database: cache.database, mediaStore: MediaStore())
        let screen = try reread.firstScreen(width: 80, rows: 100)
        #expect(screen.entries.map(\.entry) == entries)
        #expect(reread.mediaStore.facts(for: "m2") == facts["m2"])
        #expect(screen.entries.first { $0.id == "p9" }?.entry.media.kind == .unknown("livestream"))
        #expect(screen.entries.first { $0.id == "p7" }?.entry.media.clientToken == "tok-7")
        #expect(reread.mediaStore.facts(for: "m2")?.viewerReposted == true)
    }

    @Test func aCacheWrittenForAnotherListOfFacts_isDroppedNotMisread() throws {
        // Given a cache with facts, and the format a build with one more fact writes
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        try cache.prepare(viewer: "ada")
        try cache.merge(
            firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape), facts: ["m2": .everyFieldSet]))
        let longer =
            MediaFacts.fields + [.flag("viewerBookmarked", { $0.viewerLiked }, { $0.viewerLiked = $1 })]
        let otherFormat = EntryCodec.format(facts: MediaFacts.binaryFingerprint(of: longer))
        #expect(otherFormat != EntryCodec.format)

        // When that build's facts are in a cache of this format, they are not read
        let blob = EntryCodec.encode(.everyFieldSet, format: otherFormat) + [1]
        try cache.database.execute("UPDATE feed_entries SET media_facts = ? WHERE media_id = 'm2'", blob)
        let reread = FeedCache(database: cache.database, mediaStore: MediaStore())
        #expect(try reread.firstScreen(width: 80, rows: 100).entries.map(\.entry) == Samples.everyShape)
        #expect(reread.mediaStore.facts(for: "m2") == nil)

        // And a cache that build wrote shows nothing and is cleared for the viewer
        try cache.database.execute("UPDATE feed_state SET format = ? WHERE id = 1", otherFormat)
        #expect(try cache.firstScreen(width: 80, rows: 24).totalCount == 0)
        try cache.prepare(viewer: "ada")
        #expect(try cache.count == 0)
    }

    @Test func aDamagedEntry_failsWithAMessageSayingHowToRecover() throws {
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape)))
        try cache.database.execute("UPDATE feed_entries SET body = substr(body, 1, 9) WHERE entry_id = 'p2'")
        #expect {
            try cache.firstScreen(width: 80, rows: 100)
        } throws: { error in
            let message = (error as? FeedCacheError)?.message ?? ""
            return message.hasPrefix("cached entry 'p2' could not be read (byte ")
                && message.hasSuffix("the cache file is damaged: clear it (FeedCache.clear) and refresh")
        }
        try cache.clear()
        #expect(try cache.firstScreen(width: 80, rows: 10).isEmpty)
    }

    @Test func aCacheWrittenInAnOlderFormat_isDroppedNotMisread() throws {
        // Given a cache whose state says an older build wrote it (format 1 lost client tokens
        // and the viewer's reposts)
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        try cache.prepare(viewer: "ada")
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape)))
        try cache.database.execute("UPDATE feed_state SET format = 1 WHERE id = 1")

        // Then the first screen shows nothing from it, and preparing for the viewer clears it
        #expect(try cache.firstScreen(width: 80, rows: 24).totalCount == 0)
        try cache.prepare(viewer: "ada")
        #expect(try cache.count == 0)
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape)))
        #expect(try cache.firstScreen(width: 80, rows: 100).entries.map(\.entry) == Samples.everyShape)
    }

    @Test func anotherViewer_startsFromAnEmptyCache() throws {
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        try cache.prepare(viewer: "ada")
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape)))
        try cache.prepare(viewer: "ada")
        #expect(try cache.count == Samples.everyShape.count)
        try cache.prepare(viewer: "grace")
        #expect(try cache.count == 0)
    }

    @Test func onlyTheMostRecentWidthsKeepTheirHeights() throws {
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore())
        try cache.merge(firstPage: FeedPageEnvelope(FeedPage(entries: Samples.everyShape)))
        let first = try #require(try cache.entries(from: 0, count: 1).first)
        for width in 40..<(40 + FeedCache.keptWidths + 2) {
            try cache.storeHeights(
                [EntryHeights(entryID: first.id, version: first.version, rows: [width])], width: width)
        }
        #expect(try cache.heights(width: 40).knownCount == 0)
        #expect(try cache.heights(width: 41).knownCount == 0)
        #expect(try cache.heights(width: 42).rows(at: 0) == [42])
        #expect(try cache.heights(width: 47).rows(at: 0) == [47])
        #expect(throws: FeedCacheError.self) {
            try cache.storeHeights(
                [EntryHeights(entryID: first.id, version: first.version, rows: [70_000])], width: 80)
        }
    }
}
