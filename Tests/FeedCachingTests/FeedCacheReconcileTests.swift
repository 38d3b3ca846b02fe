@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import Networking
import NetworkingTesting
import ServerAPI
import Storage
import Synchronization
import Testing
import Wire

@_spi(Testing) @testable import FeedCaching

/// After a confirmed follow or unfollow the server's feed differs all the way down: the next
/// refresh fetches the cached range again, so the account's posts stand in place or are gone.
@Suite struct FeedCacheReconcileTests {
    /// shwetak (`u49`): ada does not follow them, and their recent posts are older than ada's
    /// first page and newer than her fifth.
    static let notFollowed = UserID("u49")

    /// The viewer's feed on the server, entry ids in order, as far as `count` entries.
    static func serverFeed(_ fixture: NetworkFixture, count: Int = 10_000) async throws -> [FeedEntry] {
        var entries: [FeedEntry] = []
        var cursor: String?
        repeat {
            let page = try await fixture.client.homeFeed(cursor: cursor, limit: 100)
            entries += page.payload.entries
            cursor = page.payload.nextCursor
        } while cursor != nil && entries.count < count
        return entries
    }

    /// A cache of `pages` pages of 20, refreshed and then loaded more, as a person scrolling.
    static func cache(
        _ fixture: NetworkFixture, pages: Int, requests: Counter = Counter()
    ) async throws -> FeedCache {
        let client = fixture.client
        let cache = FeedCache(
            database: try AppDatabase.open(directory: try NetworkFixture.appDirectory()),
            mediaStore: MediaStore(), clock: fixture.clock
        ) { cursor throws(TransportError) in
            requests.increment()
            return try await client.homeFeed(cursor: cursor, limit: 20)
        }
        try await cache.refresh()
        for _ in 1..<pages {
            let cursor = try #require(try cache.tailCursor)
            try await cache.loadMore(cursor: cursor)
        }
        #expect(try cache.count == pages * 20)
        return cache
    }

    static func markFollowsChanged(_ cache: FeedCache) throws {
        try cache.database.transaction { db in try FeedCache.markFollowsChanged(db) }
    }

    static func cachedIDs(_ cache: FeedCache) throws -> [FeedEntryID] {
        try cache.entries(from: 0, count: 10_000).map(\.id)
    }

    @Test func afterAConfirmedFollow_refreshFetchesTheCachedRangeAgain_andTheirPostsStandInPlace()
        async throws
    {
        // Given five pages of ada's feed cached, and a follow of shwetak the server confirmed
        let fixture = try NetworkFixture()
        let requests = Counter()
        let cache = try await Self.cache(fixture, pages: 5, requests: requests)
        let before = try Self.cachedIDs(cache)
        #expect(try await fixture.client.profile(Self.notFollowed).payload.viewerFollows == false)
        _ = try await fixture.client.send(.follow(Self.notFollowed), clientToken: "follow-1")
        let truth = try await Self.serverFeed(fixture, count: 200)
        // (their posts among the server's first hundred, all below its first page)
        let theirs = truth.indices.prefix(before.count).filter {
            truth[$0].media.author.id == Self.notFollowed
        }
        try #require(theirs.count >= 2 && theirs.allSatisfy { $0 >= 20 }, "shwetak's posts: \(theirs)")

        // When the cache learns of it, and refreshes
        try Self.markFollowsChanged(cache)
        let asked = requests.value
        let merge = try await cache.refresh()

        // Then it holds as many entries as before, the server's, their posts in place, and the
        // oldest it held, now past those pages, go (to load again from the server)
        let after = try Self.cachedIDs(cache)
        #expect(after == truth.prefix(before.count).map(\.id), "the server's entries, in its order")
        #expect(merge.inserted == theirs.map { truth[$0].id }, "only their posts are new")
        #expect(merge.removed == Array(before.suffix(theirs.count)))
        #expect(merge.updated.isEmpty && !merge.didReset)
        #expect(after.filter { !merge.inserted.contains($0) } == before.dropLast(theirs.count))
        #expect(requests.value - asked == 5, "as many pages as the cache held")
        #expect(try cache.unreconciledFollowCount == 0)
        // and loading more goes on from there without a gap
        let cursor = try #require(try cache.tailCursor)
        try await cache.loadMore(cursor: cursor)
        let more = try Self.cachedIDs(cache)
        #expect(more == truth.prefix(more.count).map(\.id))
        #expect(more.count > after.count)
    }

    @Test func afterAConfirmedUnfollow_refreshTakesTheirPostsAway_andKeepsTheOthers() async throws {
        // Given five pages cached, and an unfollow of the account with most posts there, confirmed
        let fixture = try NetworkFixture()
        let cache = try await Self.cache(fixture, pages: 5)
        let before = try cache.entries(from: 0, count: 100).map(\.entry)
        let authors = Dictionary(grouping: before.filter { !$0.isRepost }, by: \.media.author.id)
        let (account, posts) = try #require(
            authors.filter { $0.key.rawValue != "u1" }.sorted {
                ($0.value.count, $1.key.rawValue) > ($1.value.count, $0.key.rawValue)
            }.first)
        try #require(posts.count >= 3)
        _ = try await fixture.client.send(.unfollow(account), clientToken: "unfollow-1")

        // When the cache learns of it, and refreshes
        try Self.markFollowsChanged(cache)
        let merge = try await cache.refresh()

        // Then their posts are gone, the others are the server's, in its order
        let after = try cache.entries(from: 0, count: 10_000).map(\.entry)
        let truth = try await Self.serverFeed(fixture, count: after.count)
        #expect(after.map(\.id) == truth.prefix(after.count).map(\.id))
        #expect(!after.contains { !$0.isRepost && $0.media.author.id == account })
        #expect(merge.removed == posts.map(\.id))
        #expect(after.count >= before.count - posts.count)
        #expect(
            Array(after.map(\.id).prefix(before.count - posts.count))
                == before.map(\.id).filter { id in !posts.contains { $0.id == id } })
    }

    @Test func aReconcile_fetchesAtMostMaximumPages_andTheRestLoadsFromItsCursor() async throws {
        // Given fifteen pages cached and a follow confirmed
        let fixture = try NetworkFixture()
        let requests = Counter()
        let cache = try await Self.cache(fixture, pages: 15, requests: requests)
        _ = try await fixture.client.send(.follow(Self.notFollowed), clientToken: "follow-1")
        try Self.markFollowsChanged(cache)

        // When it refreshes with at most ten pages
        let asked = requests.value
        let merge = try await cache.refresh(maximumPages: 10)

        // Then ten pages were fetched and the cache is those, with the cursor after them
        #expect(requests.value - asked == 10)
        #expect(merge.count == 200)
        let truth = try await Self.serverFeed(fixture, count: 300)
        #expect(try Self.cachedIDs(cache) == truth.prefix(200).map(\.id))
        let cursor = try #require(try cache.tailCursor)
        try await cache.loadMore(cursor: cursor)
        #expect(try Self.cachedIDs(cache) == truth.prefix(220).map(\.id))
        #expect(try cache.unreconciledFollowCount == 0)
    }

    @Test func aPageLoadedAfterTheTailAReconcileMoved_isLeftOut() async throws {
        // Given five pages cached, and the page after them loaded while a follow is reconciled
        let fixture = try NetworkFixture()
        let cache = try await Self.cache(fixture, pages: 5)
        let oldTail = try #require(try cache.tailCursor)
        let late = try await fixture.client.homeFeed(cursor: oldTail, limit: 20)
        _ = try await fixture.client.send(.follow(Self.notFollowed), clientToken: "follow-1")
        try Self.markFollowsChanged(cache)
        try await cache.refresh()
        let reconciled = try Self.cachedIDs(cache)
        #expect(try cache.tailCursor != oldTail, "the reconcile moved the tail")

        // When the late page arrives
        let merge = try cache.append(late, after: oldTail)

        // Then it is left out: the cache is still the server's feed without a gap
        #expect(merge.inserted.isEmpty)
        #expect(merge.count == reconciled.count)
        #expect(try Self.cachedIDs(cache) == reconciled)
        #expect(merge.tailCursor == (try cache.tailCursor))
    }

    @Test func aFollowConfirmedWhileAReconcileIsOut_isReconciledByTheNextRefresh() async throws {
        // Given a cache to reconcile whose first fetch sees another follow confirmed meanwhile
        let fixture = try NetworkFixture()
        let client = fixture.client
        let directory = try NetworkFixture.appDirectory()
        let database = try AppDatabase.open(directory: directory)
        let requests = Counter()
        let cache = FeedCache(database: database, mediaStore: MediaStore(), clock: fixture.clock) {
            cursor throws(TransportError) in
            requests.increment()
            if requests.value == 3 {
                try? database.transaction { db in try FeedCache.markFollowsChanged(db) }
            }
            return try await client.homeFeed(cursor: cursor, limit: 20)
        }
        try await cache.refresh()
        try await cache.loadMore(cursor: try #require(try cache.tailCursor))
        try Self.markFollowsChanged(cache)

        // When it refreshes
        try await cache.refresh()

        // Then the one it read before fetching is reconciled, the later one stays for the next
        #expect(try cache.unreconciledFollowCount == 1)
        try await cache.refresh()
        #expect(try cache.unreconciledFollowCount == 0)
    }

    @Test func aFailedReconcile_leavesTheCacheAndTheMark_andAnotherViewerClearsBoth() async throws {
        // Given two pages cached and a follow confirmed
        let fixture = try NetworkFixture()
        let cache = try await Self.cache(fixture, pages: 2)
        let before = try Self.cachedIDs(cache)
        try Self.markFollowsChanged(cache)

        // When the network is down
        fixture.transport.setFaultProfile(.offline)
        await #expect(throws: TransportError.self) { try await cache.refresh() }

        // Then the cache is as it was, still to reconcile
        #expect(try Self.cachedIDs(cache) == before)
        #expect(try cache.unreconciledFollowCount == 1)
        // and a cache cleared for another viewer has nothing to reconcile
        try cache.prepare(viewer: "grace")
        #expect(try cache.unreconciledFollowCount == 0)
    }
}

/// A count shared with `@Sendable` closures.
final class Counter: Sendable {
    private let storage = Mutex(0)

    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}

extension FeedEntry {
    /// Whether the entry is someone's repost.
    fileprivate var isRepost: Bool {
        if case .repost = context { return true }
        return false
    }
}
