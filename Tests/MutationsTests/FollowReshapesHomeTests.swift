@_spi(Testing) import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// A confirmed follow or unfollow marks the feed cache in the journal write that confirms it, so
/// Home's next refresh fetches its cached range again; a pending or refused one marks nothing.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct FollowReshapesHomeTests {
    /// shwetak: ada does not follow them; their recent posts are below ada's first page.
    static let account = UserID("u49")

    /// ada's feed on the server, as far as `count` entries.
    static func serverFeed(_ harness: MutationHarness, count: Int) async throws -> [FeedEntry] {
        var entries: [FeedEntry] = []
        var cursor: String?
        repeat {
            let page = try await harness.client.homeFeed(cursor: cursor, limit: 100)
            entries += page.payload.entries
            cursor = page.payload.nextCursor
        } while cursor != nil && entries.count < count
        return entries
    }

    @Test func aPendingFollowMarksNothing_aConfirmedOneMarksTheCacheAcrossARestart_andHomeGetsTheirPosts()
        async throws
    {
        // Given three pages of ada's feed cached, and a follow the server first answers "retry in 30 s"
        let harness = try MutationHarness()
        try await harness.cache.refresh()
        for _ in 0..<2 {
            try await harness.cache.loadMore(cursor: try #require(try harness.cache.tailCursor))
        }
        let before = try harness.homeFeed().map(\.entry.id)
        #expect(before.count == 60)
        harness.faults.injectFaults([.rateLimited(retryAfter: .seconds(30))])
        let token = try await harness.manager.enqueue(.follow(Self.account))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.pending.count == 1)

        // When Home refreshes while it is pending
        try await harness.cache.refresh()

        // Then the refresh merged as usual: nothing marked, Home as it was
        #expect(try harness.cache.unreconciledFollowCount == 0)
        #expect(try harness.homeFeed().map(\.entry.id) == before)

        // When the server confirms the follow
        await harness.advance(by: .seconds(30))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        #expect(harness.manager.pending.isEmpty)

        // Then the cache is marked, and stays so across a restart
        #expect(try harness.cache.unreconciledFollowCount == 1)
        try await harness.restart()
        #expect(try harness.cache.unreconciledFollowCount == 1)

        // And the next refresh brings their posts in place: Home is the server's feed
        try await harness.cache.refresh()
        let home = try harness.homeFeed().map(\.entry)
        let truth = try await Self.serverFeed(harness, count: home.count)
        #expect(home.map(\.id) == truth.prefix(home.count).map(\.id))
        #expect(home.count == before.count)
        let theirs = home.filter { $0.media.author.id == Self.account }
        #expect(!theirs.isEmpty, "shwetak's posts below the first page are on Home")
        #expect(try harness.cache.unreconciledFollowCount == 0)
        await harness.manager.stop()
    }

    @Test func aRefusedFollow_andALike_markNothing() async throws {
        // Given a cached feed
        let harness = try MutationHarness()
        try await harness.cache.refresh()

        // When the server refuses a follow, and confirms a like
        harness.faults.injectFaults([.serverError(status: 403)])
        _ = try await harness.manager.enqueue(.follow(Self.account))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.failed.count == 1)
        let like = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: like).map(\.applied) == [true])

        // Then the cache has nothing to reconcile
        #expect(try harness.cache.unreconciledFollowCount == 0)
        await harness.manager.stop()
    }

    /// A follow or unfollow changes whose posts Home holds, and a new name of the viewer is in
    /// every post of theirs: those kinds, and only those, make the cache fetch its range again.
    @Test func everyKind_reshapesHomeExactlyWhenItFollowsUnfollowsOrRenamesTheViewer() {
        let reshaping = MutationKind.all.filter(\.reshapesHomeFeed).map(\.name)
        #expect(reshaping == ["follow", "unfollow", "profile"])
    }
}
