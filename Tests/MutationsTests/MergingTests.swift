@_spi(Testing) import Backend
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Storage
import Testing
import Wire

@Suite(.timeLimit(mutationSuiteHangLimit)) struct MergingTests {
    static let ada = User(id: "u1", handle: "ada", displayName: "Ada")

    static func entry(_ number: Int, by author: User = ada, text: String? = nil) -> FeedEntry {
        FeedEntry(
            id: FeedEntryID("p\(number)"),
            media: Media(
                id: MediaID("m\(number)"), author: author,
                createdAt: Date(timeIntervalSince1970: 1_714_000_000),
                text: text ?? "post \(number)"))
    }

    @Test func aPendingLike_isStateBased_soAServerStateThatHoldsItIsNotCountedTwice() async throws {
        // Given a pending like (nothing is sent: the manager is not started)
        let harness = try MutationHarness(start: false)
        try await harness.manager.enqueue(.like("m5"))

        // When the server data does not hold it yet, it is added; when it does, it is not again
        #expect(
            harness.manager.mergedFacts(MediaFacts(likeCount: 3), for: "m5")
                == MediaFacts(likeCount: 4, viewerLiked: true))
        #expect(
            harness.manager.mergedFacts(MediaFacts(likeCount: 4, viewerLiked: true), for: "m5")
                == MediaFacts(likeCount: 4, viewerLiked: true))

        // and a later unlike wins over the like
        try await harness.manager.enqueue(.unlike("m5"))
        #expect(
            harness.manager.mergedFacts(MediaFacts(likeCount: 4, viewerLiked: true), for: "m5")
                == MediaFacts(likeCount: 3, viewerLiked: false))
        #expect(harness.manager.mergedFacts(MediaFacts(likeCount: 3), for: "m5") == MediaFacts(likeCount: 3))
    }

    @Test func aPendingUndoOfARepost_isStateBased_soARefreshThatHoldsItIsNotCountedTwice() async throws {
        // Given the server says the viewer reposted m7, and an undo of that repost is pending
        let harness = try MutationHarness(start: false)
        let reposted = MediaFacts(repostCount: 4, viewerReposted: true)
        try await harness.manager.enqueue(.unrepost("m7"))

        // When the server data does not hold the undo yet, the count goes down by one
        #expect(harness.manager.mergedFacts(reposted, for: "m7") == MediaFacts(repostCount: 3))

        // and a refresh that already holds it is shown as it is, not taken down again
        #expect(
            harness.manager.mergedFacts(MediaFacts(repostCount: 3), for: "m7") == MediaFacts(repostCount: 3))

        // When the viewer reposts again, the later change wins, still by state
        try await harness.manager.enqueue(.repost("m7"))
        #expect(harness.manager.mergedFacts(MediaFacts(repostCount: 3), for: "m7") == reposted)
        #expect(harness.manager.mergedFacts(reposted, for: "m7") == reposted, "not counted twice")
    }

    @Test func aFailedUndoOfARepost_isRolledBack_toTheServersRepost() async throws {
        // Given an undo of a repost of a post the server does not have
        let harness = try MutationHarness()
        try await harness.manager.enqueue(.unrepost("m999999"))

        // When it fails
        await harness.manager.waitUntilIdle()

        // Then it shows nothing: the server's repost stands
        #expect(harness.manager.failed.map(\.mutation) == [.unrepost("m999999")])
        let reposted = MediaFacts(repostCount: 2, viewerReposted: true)
        #expect(harness.manager.mergedFacts(reposted, for: "m999999") == reposted)
        await harness.manager.stop()
    }

    @Test func pendingEffects_showOnTheFeed_newPostOnTopDeleteHiddenRepostAndReplyCounted() async throws {
        // Given server entries and pending mutations of every kind that shows in a feed
        let harness = try MutationHarness(start: false)
        harness.manager.setViewer(Self.ada)
        let entries = [Self.entry(1), Self.entry(2), Self.entry(3)]
        let facts: [MediaID: MediaFacts] = [
            "m1": MediaFacts(replyCount: 2), "m3": MediaFacts(repostCount: 1),
        ]
        let post = try await harness.manager.enqueue(.post(text: "new", attachments: []))
        try await harness.manager.enqueue([
            .delete("m2"), .repost("m3"), .reply(to: "m1", text: "re", attachments: []),
        ])

        // When they are merged
        let merged = harness.manager.mergedHomeFeed(entries, facts: facts)

        // Then the new post is on top under its local id, the deleted one is gone, the repost
        // and the reply are counted
        #expect(merged.map(\.id) == [post.localEntryID, "p1", "p3"])
        #expect(merged[0].status == .pending(post))
        #expect(merged[0].entry.media.author == Self.ada)
        #expect(merged[0].entry.media.id == post.localMediaID)
        #expect(merged[1].facts.replyCount == 3)
        #expect(merged[2].facts == MediaFacts(repostCount: 2, viewerReposted: true))
        #expect(harness.manager.isDeleted("m2"))
    }

    @Test func aFailedLike_isRolledBack_butAFailedPostStaysAsAFailedEntry() async throws {
        // Given a like of a media that does not exist and a blank post
        let harness = try MutationHarness()
        try await harness.manager.enqueue(.like("m999999"))
        let post = try await harness.manager.enqueue(.post(text: " ", attachments: []))

        // When both fail
        await harness.manager.waitUntilIdle()

        // Then the like shows nothing, and the post shows as failed
        #expect(harness.manager.failed.count == 2)
        #expect(
            harness.manager.mergedFacts(MediaFacts(likeCount: 1), for: "m999999") == MediaFacts(likeCount: 1))
        let feed = harness.manager.mergedHomeFeed([Self.entry(1)], facts: [:])
        #expect(feed.map(\.id) == [post.localEntryID, "p1"])
        #expect(feed[0].status.token == post)
        await harness.manager.stop()
    }

    /// - Parameter viewerSet: whether the app told the manager who the viewer is; if not, the
    ///   manager learns it from an earlier confirmed post.
    @Test(arguments: [true, false])
    func aRefreshBeforeAndAfterTheConfirmation_neverMakesThePostOrTheLikeFlicker(viewerSet: Bool) async throws
    {
        // Given a feed on screen (frames are the merged view, checked after every step)
        let harness = try MutationHarness()
        if viewerSet {
            harness.manager.setViewer(Self.ada)
        } else {
            try await harness.manager.enqueue(.post(text: "earlier", attachments: []))
            await harness.manager.waitUntilIdle()
            #expect(harness.manager.viewer?.handle == "ada")
        }
        try await harness.cache.refresh()
        let liked = try #require(try harness.homeFeed().first?.entry.media.id)
        let base = try await harness.serverFacts(liked)
        var frames: [[MergedEntry]] = []
        func frame() throws {
            let rows = try harness.homeFeed()
            frames.append(rows)
            // the post is shown exactly once, on top, and the like exactly once
            #expect(rows.filter { $0.entry.media.text == "hello" }.count == 1, "frame \(frames.count)")
            #expect(rows.first?.entry.media.text == "hello", "frame \(frames.count)")
            let likedRows = rows.filter { $0.entry.media.id == liked }
            #expect(!likedRows.isEmpty, "frame \(frames.count)")
            #expect(
                likedRows.allSatisfy { $0.facts.viewerLiked && $0.facts.likeCount == base.likeCount + 1 },
                "frame \(frames.count): \(likedRows.map(\.facts))")
        }

        // When ada posts and likes, and both responses are lost after the server applied them
        harness.faults.injectFaults([.dropResponseAfterApply, .dropResponseAfterApply])
        let post = try await harness.manager.enqueue(.post(text: "hello", attachments: []))
        let like = try await harness.manager.enqueue(.like(liked))
        try frame()
        await harness.manager.waitUntilIdle()
        try frame()
        #expect(harness.manager.record(for: post)?.state == .pending)
        #expect(harness.manager.record(for: like)?.state == .pending)

        // and a refresh arrives before the confirmation (the server already holds both)
        try await harness.cache.refresh()
        try frame()
        #expect(frames.last?.first?.status == .server)

        // and the retries are confirmed
        await harness.advance(by: .seconds(2))
        #expect(harness.manager.pending.isEmpty)
        try frame()

        // and another refresh arrives after it
        try await harness.cache.refresh()
        try frame()
        try frame()

        // Then every frame showed the post once on top and the like once (checked in `frame`)
        #expect(frames.count == 6)
        #expect(harness.handlings(of: post).map(\.replayed) == [false, true])
        await harness.manager.stop()
    }

    @Test func aConfirmedPost_staysOnTop_untilAListHoldsIt_evenAcrossARestart() async throws {
        // Given a post confirmed while the cached feed is older than it
        let harness = try MutationHarness()
        try await harness.cache.refresh()
        let post = try await harness.manager.enqueue(.post(text: "mine", attachments: []))
        await harness.manager.waitUntilIdle()
        let serverID = try #require(harness.manager.serverID(of: post))

        // Then it shows on top as server data (with its server id), also after a restart
        for _ in 0..<2 {
            let feed = try harness.homeFeed()
            #expect(feed.first?.id == post.localEntryID)
            #expect(feed.first?.entry.media.id == serverID)
            #expect(feed.first?.status == .server)
            #expect(harness.manager.record(for: post)?.state == .confirmed)
            try await harness.restart()
        }

        // When a refresh brings it
        try await harness.cache.refresh()
        let feed = try harness.homeFeed()

        // Then it shows once, as the list's entry, and leaves the journal
        #expect(
            feed.filter { $0.entry.media.id == serverID }.map(\.id) == [
                FeedEntryID("p\(serverID.rawValue.dropFirst())")
            ])
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: post) == nil)
        #expect(try harness.database.query("SELECT COUNT(*) FROM mutation_journal").first?.int(0) == 0)
        await harness.manager.stop()
    }

    @Test func aReply_showsAtTheEndOfItsThread_untilThePageHoldsIt() async throws {
        // Given a thread on screen and a reply made to it
        let harness = try MutationHarness()
        let page = try await harness.client.thread("m7").payload
        let facts = try await harness.client.thread("m7").facts
        let reply = try await harness.manager.enqueue(.reply(to: "m7", text: "me too", attachments: []))
        let pending = harness.manager.mergedThread(page, facts: facts)
        #expect(pending.replies.last?.status == .pending(reply))
        #expect(pending.facts["m7"]?.replyCount == (facts["m7"]?.replyCount ?? 0) + 1)

        // When it is confirmed, the old page still shows it once, and the count once
        await harness.manager.waitUntilIdle()
        let confirmed = harness.manager.mergedThread(page, facts: harness.store.facts(for: ["m7"]))
        #expect(confirmed.replies.filter { $0.entry.media.text == "me too" }.count == 1)
        #expect(confirmed.facts["m7"]?.replyCount == (facts["m7"]?.replyCount ?? 0) + 1)

        // and a fresh page holds it once, as the server's entry
        let fresh = try await harness.client.thread("m7")
        let merged = harness.manager.mergedThread(fresh.payload, facts: fresh.facts)
        #expect(merged.replies.filter { $0.entry.media.text == "me too" }.map(\.status) == [.server])
        #expect(
            merged.replies.filter { $0.entry.media.text == "me too" }.first?.id.rawValue.hasPrefix("p")
                == true)
        await harness.manager.stop()
    }

    @Test func aPendingPostsThread_isBuiltFromTheLayer() async throws {
        let harness = try MutationHarness(start: false)
        let post = try await harness.manager.enqueue(.post(text: "root", attachments: []))
        let reply = try await harness.manager.enqueue(
            .reply(to: post.localMediaID, text: "child", attachments: []))

        let thread = try #require(harness.manager.mergedThread(ofLocal: post.localMediaID))

        #expect(thread.post.text == "root")
        #expect(thread.postStatus == .pending(post))
        #expect(thread.replies.map(\.status) == [.pending(reply)])
        #expect(thread.facts[post.localMediaID]?.replyCount == 1)
        #expect(harness.manager.mergedThread(ofLocal: "m7") == nil)
    }

    @Test func aFollow_showsInTheProfile_untilAProfileAgrees() async throws {
        // Given a profile of someone ada does not follow
        let harness = try MutationHarness()
        let server = try await harness.client.profile("u50")
        #expect(!server.payload.viewerFollows)

        // When ada follows (pending, then confirmed)
        let token = try await harness.manager.enqueue(.follow("u50"))
        let pending = harness.manager.mergedProfile(server.payload, facts: server.facts)
        await harness.manager.waitUntilIdle()
        let confirmed = harness.manager.mergedProfile(server.payload, facts: server.facts)

        // Then the old profile shows it followed throughout, the count moved by one
        for merged in [pending, confirmed] {
            #expect(merged.profile.viewerFollows)
            #expect(merged.profile.followerCount == server.payload.followerCount + 1)
        }
        #expect(pending.followStatus == .pending(token))
        #expect(harness.manager.isFollowing("u50", server: false))

        // and a fresh profile agrees, so the confirmed follow leaves the layer
        let fresh = try await harness.client.profile("u50").payload
        #expect(harness.manager.mergedProfile(fresh, facts: [:]).profile == fresh)
        #expect(harness.manager.record(for: token) == nil)
        await harness.manager.stop()
    }

    @Test func aListWithoutClientTokens_stillMatchesAPendingPostByAuthorAndText() async throws {
        // Given a pending post of ada's and a list (as the feed cache keeps it: no client token)
        // that already holds the server's copy
        let harness = try MutationHarness(start: false)
        harness.manager.setViewer(Self.ada)
        try await harness.manager.enqueue(.post(text: "same words", attachments: []))
        let copy = FeedEntry(
            id: "p9",
            media: Media(id: "m9", author: Self.ada, createdAt: harness.clock.now, text: "same words"))
        let someoneElse = User(id: "u2", handle: "bo", displayName: "Bo")

        // Then the post shows once; the same words by someone else do not count
        #expect(harness.manager.mergedHomeFeed([copy], facts: [:]).map(\.id) == ["p9"])
        #expect(
            harness.manager.mergedHomeFeed([Self.entry(9, by: someoneElse, text: "same words")], facts: [:])
                .count == 2)
    }

    @Test func mergingWithNothingPending_passesTheServerDataThrough() async throws {
        let harness = try MutationHarness(start: false)
        let entries = (1...5).map { Self.entry($0) }
        let facts: [MediaID: MediaFacts] = ["m2": MediaFacts(likeCount: 9)]

        let merged = harness.manager.mergedHomeFeed(entries, facts: facts)

        #expect(merged.map(\.entry) == entries)
        #expect(merged.map(\.facts.likeCount) == [0, 9, 0, 0, 0])
        #expect(merged.allSatisfy { $0.status == .server })
    }
}
