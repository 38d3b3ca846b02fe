import AppRuntime
import AppTesting
@_spi(Testing) import Backend
import Composition
import Features
import Foundation
import ListEngine
import MediaModel
import TerminalUI
import Testing
import Wire

/// Updates of more than one shape at once, as a refresh brings them: posts inserted above while a
/// post below changes, and the same post listed several times (as itself and as reposts), changed
/// in one batch. The selection stays on its post, the changed rows show the new counts, the new
/// rows come above in order, and nothing is shown twice or lost.
@Suite @MainActor struct BatchShapeScenarios {
    /// The server's counts of `id` as the viewer sees them.
    static func serverFacts(of id: MediaID, on server: BackendServer) async throws -> MediaFacts {
        let response = await server.handle(
            Request(
                .get, "/v1/posts/\(id.rawValue)",
                headers: ["Authorization": "Bearer \(server.testToken(forHandle: BackendSeed.firstHandle))"]))
        try #require(response.status == 200)
        return try WireFormat.decode(Media.self, from: response.body).facts[id] ?? MediaFacts()
    }

    /// The counts lines of the frame's selected post block.
    static func selectedCountsLines(_ frame: String) -> [String] {
        lines(frame).filter { $0.hasPrefix("▌♡ ") || $0.hasPrefix("▌♥ ") }.map { String($0.dropFirst()) }
    }

    /// How a counts line reads for `facts`.
    static func countsLine(_ facts: MediaFacts) -> String {
        (facts.viewerLiked ? "♥ " : "♡ ")
            + "\(facts.likeCount)   ↩ \(facts.replyCount)   ↻ \(facts.repostCount)"
            + (facts.viewerReposted ? " · you reposted" : "")
    }

    @Test(arguments: ShippedApp.withHome)
    func newPostsAboveAndNewCountsOnTheSelectedPost_inOneRefresh(app: ShippedApp) async throws {
        // Given Home, the third post about to be selected
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)
        let before = feed.items
        let watched = before[2]
        let beforeCounts = watched.facts

        // And, on the server meanwhile, three new posts and two more likes of that post
        try await NewPostsScenarios.post(3, on: server)
        for liker in ["ruth", "ida"] {
            try await BackendFixtures.like(on: server, as: liker, watched.media.id.rawValue)
        }
        let truth = try await Self.serverFacts(of: watched.media.id, on: server)
        #expect(truth.likeCount > beforeCounts.likeCount, "\(app.id): the likes reached the server")

        // When the person pulls to refresh at the top, then moves down to that post before it lands
        _ = session.shell?.handle(.character("k"))
        _ = session.shell?.handle(.character("j"))
        _ = session.shell?.handle(.character("j"))
        #expect(feed.postList.selectedItem?.id == watched.id)
        await session.settle()

        // Then one update: the three new posts on top (newest first), then every post as before,
        // once each, in the same order
        let after = feed.items
        #expect(after.prefix(3).map(\.media.text) == NewPostsScenarios.texts(3).reversed())
        let kept = Array(after.dropFirst(3).prefix(before.count))
        #expect(kept.map(\.id) == before.map(\.id), "\(app.id): the older posts keep their order")
        #expect(Set(after.map(\.id)).count == after.count, "no post twice")
        // the same post selected, three further down, with the server's new counts
        #expect(feed.postList.selectedItem?.id == watched.id)
        #expect(feed.postList.selectedIndex == 5)
        #expect(feed.postList.selectedItem?.facts.likeCount == truth.likeCount)
        let frame = HeadlessHarness.frame(of: session)
        #expect(Self.selectedCountsLines(frame) == [Self.countsLine(truth)], "\(app.id):\n\(frame)")
        #expect(NewPostsScenarios.markerLines(frame, "3 new posts ↑").count == 1)
        // and it is one batch of one shape: three inserts on top and the watched post changed
        // (its old place 2), nothing deleted or moved
        let diff = ListDiff.diff(old: before, new: Array(after.prefix(before.count + 3)))
        #expect(diff.inserts == [0, 1, 2], "\(diff)")
        #expect(diff.deletes.isEmpty && diff.moves.isEmpty, "\(diff)")
        #expect(diff.updates.contains(2), "\(diff)")
        #expect(feed.postList.adapter.items.count == after.count, "the list shows every item")
    }

    @Test(arguments: ShippedApp.withHome)
    func aPostListedWithItsReposts_showsEachEntryOnce_andOneCountOnEveryCopy(app: ShippedApp) async throws {
        // Given grace's photo post, reposted by two people the viewer follows
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let text = "Harbour lights, shared around, \(app.id)"
        let id = try await BackendFixtures.post(
            on: backend, as: "grace", text: text, attachmentsJSON: BackendFixtures.photoJSON)
        for reposter in ["mary", "kathleen"] {
            try await BackendFixtures.follow(on: backend, as: BackendSeed.firstHandle, reposter)
            try await BackendFixtures.repost(on: backend, as: reposter, id)
        }
        backend.close()
        let (session, clock) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let feed = try #require(session.shell?.currentScreen as? FeedScreen)
        let server = try #require(session.app?.service(.embeddedBackend)?.embeddedTransport?.server)

        // Then Home lists it three times, newest first: kathleen's repost, mary's, the post itself
        func copies() -> [PostItem] { feed.items.filter { $0.media.id.rawValue == id } }
        func reposter(_ item: PostItem) -> String? {
            if case .repost(let user) = item.context { user.handle } else { nil }
        }
        #expect(copies().map(reposter) == ["kathleen", "mary", nil], "\(app.id)")
        #expect(Array(feed.items.prefix(3).map(\.media.id.rawValue)) == [id, id, id])
        #expect(Set(copies().map(\.id)).count == 3, "three entries, each its own")
        let start = copies()[0].facts
        #expect(start.repostCount == 2)

        // When the viewer likes the middle copy (mary's repost)
        await DeleteScenarios.press(.character("j"), in: session)
        let selected = try #require(feed.postList.selectedItem)
        #expect(reposter(selected) == "mary")
        await DeleteScenarios.press(.character("l"), in: session)

        // Then every copy shows the like, once each, and the frame agrees
        var liked = start
        liked.likeCount += 1
        liked.viewerLiked = true
        #expect(copies().map(\.facts.likeCount) == [liked.likeCount, liked.likeCount, liked.likeCount])
        #expect(copies().allSatisfy { $0.facts.viewerLiked })
        let frame = HeadlessHarness.frame(of: session)
        #expect(Self.selectedCountsLines(frame) == [Self.countsLine(liked)], "\(app.id):\n\(frame)")

        // When a new post arrives and someone else reposts it too, and the viewer refreshes from
        // the top, a minute later
        _ = clock.advance(by: .seconds(60))
        try await BackendFixtures.post(
            on: server, as: "grace", text: "Later the same evening, \(app.id)",
            attachmentsJSON: BackendFixtures.photoJSON)
        try await BackendFixtures.repost(on: server, as: "ruth", id)
        await DeleteScenarios.press(.character("g"), in: session)
        await DeleteScenarios.press(.character("k"), in: session)

        // Then the new post is on top and the three copies follow it, in the same order, each
        // with the server's new repost count and the viewer's like
        let truth = try await Self.serverFacts(of: MediaID(id), on: server)
        #expect(truth.repostCount == 3 && truth.viewerLiked)
        #expect(feed.items.first?.media.text == "Later the same evening, \(app.id)")
        #expect(Array(feed.items.dropFirst().prefix(3).map(\.media.id.rawValue)) == [id, id, id])
        #expect(copies().map(reposter) == ["kathleen", "mary", nil])
        #expect(copies().allSatisfy { $0.facts.repostCount == 3 && $0.facts.likeCount == truth.likeCount })
        #expect(Set(feed.items.map(\.id)).count == feed.items.count, "no entry twice")
    }
}
