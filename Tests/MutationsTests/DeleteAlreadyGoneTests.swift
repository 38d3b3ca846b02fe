@_spi(Testing) import Backend
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// A delete the server answers "not found": the post is already gone (deleted from another
/// device), which is what the delete asked for.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct DeleteAlreadyGoneTests {
    @Test func aDeleteAnswered404_isDone_andThePostStaysGone() async throws {
        // Given a post of ada's on the home feed
        let harness = try MutationHarness()
        let post = try await harness.manager.enqueue(.post(text: "Blurry harbour photo", attachments: []))
        await harness.manager.waitUntilIdle()
        let id = try #require(harness.manager.serverID(of: post))
        _ = try await harness.cache.refresh()
        #expect(try harness.homeFeed().first?.entry.media.id == id)

        // And the other app deleted it already
        let other = await harness.server.handle(
            Request(
                .delete, "/v1/posts/\(id.rawValue)",
                headers: [
                    "Authorization": "Bearer \(harness.server.testToken(forHandle: BackendSeed.firstHandle))",
                    "Idempotency-Key": "other-app-\(UUID().uuidString)",
                ]))
        #expect(other.status == 200)

        // When this device deletes it too (the server answers 404)
        let delete = try await harness.manager.enqueue(.delete(id))
        await harness.manager.waitUntilIdle()

        // Then the delete is done, not failed, and the post stays gone
        #expect(harness.handlings(of: delete).map(\.status) == [404])
        #expect(harness.manager.failed.isEmpty, "not a refusal: \(harness.manager.failed)")
        #expect(harness.manager.pending.isEmpty)
        #expect(try !harness.homeFeed().contains { $0.entry.media.id == id }, "the post stays gone")
        let attempt = try #require(try harness.manager.attemptLog(limit: 1).first)
        #expect(attempt.outcome == .confirmed)
        #expect(attempt.status == 404)
        await harness.manager.stop()
    }

    @Test func aLikeAnswered404_isStillARefusal_andRolledBack() async throws {
        // Given a post that is gone on the server
        let harness = try MutationHarness()
        let post = try await harness.manager.enqueue(.post(text: "Short-lived", attachments: []))
        await harness.manager.waitUntilIdle()
        let id = try #require(harness.manager.serverID(of: post))
        let delete = try await harness.manager.enqueue(.delete(id))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: delete)?.state != .failed)

        // When ada likes it
        let like = try await harness.manager.enqueue(.like(id))
        await harness.manager.waitUntilIdle()

        // Then the like fails: only a delete is done by the post being gone
        #expect(harness.manager.failed.map(\.token) == [like])
        await harness.manager.stop()
    }
}
