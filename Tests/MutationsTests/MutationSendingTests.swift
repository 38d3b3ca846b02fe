@_spi(Testing) import Backend
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

@Suite(.timeLimit(mutationSuiteHangLimit)) struct MutationSendingTests {
    @Test func aLike_isSentWithItsTokenAsIdempotencyKey_andConfirmedIntoTheMediaStore() async throws {
        // Given a running manager and a media ada has not liked
        let harness = try MutationHarness()
        let before = try await harness.serverFacts("m7")
        #expect(!before.viewerLiked)

        // When ada likes it and the manager settles
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // Then the server applied it once, under the token, and the facts reached the store
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        #expect(harness.handlings(of: token).first?.request == "PUT /v1/posts/m7/like")
        #expect(harness.manager.record(for: token) == nil)
        #expect(harness.store.facts(for: "m7")?.viewerLiked == true)
        #expect(harness.store.facts(for: "m7")?.likeCount == before.likeCount + 1)
        await harness.manager.stop()
    }

    @Test func a500ThenSuccess_retriesAfterTheBackoff_andIsAppliedOnce() async throws {
        // Given a server that answers the next request with a 500
        let harness = try MutationHarness()
        harness.faults.injectFaults([.serverError(status: 500)])

        // When a like is enqueued
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // Then it waits for its backoff, within the first retry's ceiling of 1 s
        let record = try #require(harness.manager.record(for: token))
        #expect(record.state == .pending)
        #expect(record.attempts == 1)
        let next = try #require(record.nextAttemptAt)
        #expect(next >= harness.clock.now && next <= harness.clock.now.addingTimeInterval(1))
        #expect(harness.handlings(of: token).isEmpty)

        // and once the clock reaches it, the retry is applied, once
        harness.clock.advance(to: next)
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        #expect(harness.manager.record(for: token) == nil)
        let log = try harness.manager.attemptLog(for: token)
        #expect(log.map(\.outcome) == [.retry, .confirmed])
        #expect(log.first?.status == 500)
        #expect(log.first?.errorClass == .serverError)
        await harness.manager.stop()
    }

    @Test func a429WithRetryAfter_isRetriedNoSoonerThanTheServerAsked() async throws {
        // Given a server that rate-limits the next request for 30 seconds
        let harness = try MutationHarness()
        harness.faults.injectFaults([.rateLimited(retryAfter: .seconds(30))])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        #expect(try harness.manager.attemptLog(for: token).map(\.delay) == [.seconds(30)])

        // When 29 seconds pass, nothing is sent
        await harness.advance(by: .seconds(29))
        #expect(harness.handlings(of: token).isEmpty)
        #expect(harness.manager.record(for: token)?.attempts == 1)

        // Then at 30 seconds it goes, and is applied
        await harness.advance(by: .seconds(1))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        await harness.manager.stop()
    }

    @Test func aResponseDroppedAfterTheServerApplied_isRetriedWithTheSameToken_andAppliedOnce() async throws {
        // Given a like whose first response is lost after the server applied it
        let harness = try MutationHarness()
        let before = try await harness.serverFacts("m7")
        harness.faults.injectFaults([.dropResponseAfterApply])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        #expect(harness.manager.record(for: token)?.state == .pending)

        // When the retry goes out
        await harness.advance(by: .seconds(2))

        // Then the server answers from its record (same token), and counted the like once
        #expect(harness.handlings(of: token).map(\.replayed) == [false, true])
        #expect(harness.manager.record(for: token) == nil)
        #expect(try await harness.serverFacts("m7").likeCount == before.likeCount + 1)
        let log = try harness.manager.attemptLog(for: token)
        #expect(log.map(\.outcome) == [.retry, .confirmed])
        #expect(log.first?.errorClass == .timeout)
        #expect(log.last?.detail == "replayed")
        await harness.manager.stop()
    }

    @Test func aPermanent400MidLane_failsThatMutation_rollsItBack_andTheLaneGoesOn() async throws {
        // Given three posts in the posts lane, the middle one invalid (blank text)
        let harness = try MutationHarness()
        let tokens = try await harness.manager.enqueue([
            .post(text: "first", attachments: []), .post(text: "   ", attachments: []),
            .post(text: "third", attachments: []),
        ])

        // When the lane is sent
        await harness.manager.waitUntilIdle()

        // Then the first and third are applied in order, the middle one failed with its reason
        #expect(harness.recorder.handled.map(\.token) == tokens.map(\.rawValue))
        #expect(harness.recorder.handled.map(\.status) == [201, 400, 201])
        #expect(harness.manager.failed.map(\.token) == [tokens[1]])
        let failure = try #require(harness.manager.failed.first?.lastError)
        #expect(
            failure.contains("bad request")
                && failure.contains("a post needs text or at least one attachment"))
        #expect(harness.manager.pending.isEmpty)
        let firstID = try #require(harness.manager.serverID(of: tokens[0]))
        let thirdID = try #require(harness.manager.serverID(of: tokens[2]))
        #expect(firstID < thirdID)

        // and the feed shows the failed post as failed, the others as server posts
        let feed = try harness.homeFeed()
        #expect(feed.prefix(3).map(\.entry.media.text) == ["third", "   ", "first"])
        #expect(feed[1].status.token == tokens[1])
        if case .failed(_, let message) = feed[1].status {
            #expect(message == failure)
        } else {
            Issue.record("the failed post is shown as \(feed[1].status)")
        }
        await harness.manager.stop()
    }

    @Test func offlineForAnHour_backsOffUpToTheCap_thenSendsAtOnceWhenTheNetworkIsBack() async throws {
        // Given no network
        let harness = try MutationHarness()
        harness.faults.setFaultProfile(.offline)
        let like = try await harness.manager.enqueue(.like("m7"))
        let follow = try await harness.manager.enqueue(.follow("u9"))

        // When an hour passes
        await harness.advance(by: .seconds(3600), step: .seconds(10))

        // Then both kept retrying, never waiting more than the 60 s cap
        for token in [like, follow] {
            let log = try harness.manager.attemptLog(limit: 1000, for: token)
            #expect(log.count >= 50)
            #expect(log.allSatisfy { $0.outcome == .retry && $0.errorClass == .offline })
            #expect(log.allSatisfy { ($0.delay ?? .zero) <= .seconds(60) })
            #expect(harness.handlings(of: token).isEmpty)
        }

        // and when the network comes back, they go at once, without advancing the clock
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: like).map(\.applied) == [true])
        #expect(harness.handlings(of: follow).map(\.applied) == [true])
        await harness.manager.stop()
    }

    @Test func aRestart_keepsPendingInFlightAndFailedMutations_andFinishesThem() async throws {
        // Given a like in flight (applied, its response held back 5 s), an unlike waiting behind
        // it in the same lane, and a failed follow (ada cannot follow herself)
        let lossy = FaultProfile(name: "lossy", dropTimeout: .seconds(5))
        let harness = try MutationHarness(profile: lossy)
        let before = try await harness.serverFacts("m7")
        let follow = try await harness.manager.enqueue(.follow("u1"))
        await harness.manager.waitUntilIdle()
        harness.faults.injectFaults([.dropResponseAfterApply])
        let like = try await harness.manager.enqueue(.like("m7"))
        let unlike = try await harness.manager.enqueue(.unlike("m7"))
        await eventually("the like is in flight") {
            harness.manager.record(for: like)?.state == .inFlight && !harness.handlings(of: like).isEmpty
        }
        #expect(harness.manager.failed.map(\.token) == [follow])

        // When the app restarts (the attempt in flight is cancelled)
        try await harness.restart(start: false)

        // Then the journal is rebuilt: the like and unlike pending, the follow failed, and the
        // merged view shows the last pending intent (not liked)
        #expect(harness.manager.pending.map(\.token) == [like, unlike])
        #expect(harness.manager.pending.map(\.state) == [.pending, .pending])
        #expect(harness.manager.failed.map(\.token) == [follow])
        #expect(!harness.manager.mergedFacts(before, for: "m7").viewerLiked)

        // and once started, the like is confirmed from the server's record, then the unlike sent
        harness.manager.start()
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: like).map(\.replayed) == [false, true])
        #expect(harness.handlings(of: unlike).map(\.applied) == [true])
        #expect(harness.manager.pending.isEmpty)
        let after = try await harness.serverFacts("m7")
        #expect(!after.viewerLiked && after.likeCount == before.likeCount)
        await harness.manager.stop()
    }

    @Test func a401_callsTheReauthenticationHook_retriesAtOnce_thenBacksOff() async throws {
        // Given a session token the server does not know
        let harness = try MutationHarness(bearerToken: "tok_unknown")

        // When a like is sent
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // Then the hook ran before each retry: the first retry at once, the next after a backoff
        #expect(harness.reauthenticationCount == 2)
        let log = try harness.manager.attemptLog(for: token)
        #expect(log.map(\.outcome) == [.reauthenticate, .reauthenticate])
        #expect(log.map(\.status) == [401, 401])
        #expect(log.first?.delay == .zero)
        #expect((log.last?.delay ?? .zero) > .zero)

        // and when the hook renews the session, the next attempt succeeds
        harness.session.renew(to: harness.server.testToken(forHandle: "ada"))
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()
        #expect(harness.reauthenticationCount == 3)
        #expect(harness.handlings(of: token).last?.applied == true)
        await harness.manager.stop()
    }

    @Test func lanes_runConcurrently_andEachGoesInTheOrderMade() async throws {
        // Given a like stuck behind a 503 in its lane
        let harness = try MutationHarness()
        harness.faults.injectFaults([.serverError(status: 503)])
        let stuck = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: stuck)?.state == .pending)

        // When mutations of another media are made
        let other = try await harness.manager.enqueue([.like("m9"), .unlike("m9"), .like("m9")])
        await harness.manager.waitUntilIdle()

        // Then that lane went on without waiting, in order, while the first still waits
        #expect(harness.recorder.handled.map(\.token) == other.map(\.rawValue))
        #expect(harness.manager.record(for: stuck)?.state == .pending)
        #expect(try await harness.serverFacts("m9").viewerLiked)
        await harness.manager.stop()
    }

    @Test func aReplyToAPendingPost_waitsForIt_andIsSentWithTheServersID() async throws {
        // Given a post and a reply to it made offline
        let harness = try MutationHarness()
        harness.faults.setFaultProfile(.offline)
        let post = try await harness.manager.enqueue(.post(text: "hello", attachments: []))
        let reply = try await harness.manager.enqueue(
            .reply(to: post.localMediaID, text: "first!", attachments: []))
        #expect(harness.manager.record(for: reply)?.dependsOn == post)
        #expect(harness.manager.record(for: reply)?.lane == .thread(post.localMediaID))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: reply)?.attempts == 0)

        // When the network is back
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()

        // Then the post went first and the reply went to the post's server id
        let serverID = try #require(harness.manager.serverID(of: post))
        #expect(harness.recorder.handled.map(\.token) == [post.rawValue, reply.rawValue])
        #expect(harness.handlings(of: reply).first?.request == "POST /v1/posts/\(serverID)/replies")
        #expect(
            harness.manager.record(for: reply)?.mutation
                == .reply(to: serverID, text: "first!", attachments: []))
        await harness.manager.stop()
    }

    @Test func mutationsOfAFailedPost_failToo_sayingWhy_andRetryOrDiscardTakesThemAlong() async throws {
        // Given a post the server refuses once (403), and a reply and a like of it
        let harness = try MutationHarness()
        harness.faults.setFaultProfile(.offline)
        let post = try await harness.manager.enqueue(.post(text: "hello", attachments: []))
        let reply = try await harness.manager.enqueue(
            .reply(to: post.localMediaID, text: "hi", attachments: []))
        let like = try await harness.manager.enqueue(.like(post.localMediaID))
        harness.faults.setFaultProfile(.perfect)
        harness.faults.injectFaults([.serverError(status: 403)])

        // When the post fails for good
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()

        // Then the reply and the like fail with it, saying why
        #expect(Set(harness.manager.failed.map(\.token)) == [post, reply, like])
        let reason = try #require(harness.manager.record(for: reply)?.lastError)
        #expect(reason.hasPrefix("it waits for the post '\(post)', which failed (") == true)
        #expect(reason.hasSuffix("; retry that post to send this too, or discard it"))
        #expect(harness.recorder.handled.isEmpty)

        // and retrying the post sends all three
        try harness.manager.retry(post)
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.failed.isEmpty)
        #expect(Set(harness.recorder.handled.map(\.token)) == [post.rawValue, reply.rawValue, like.rawValue])
        #expect(harness.recorder.handled.allSatisfy { $0.applied })
        await harness.manager.stop()
    }

    @Test func discardingAFailedPost_discardsWhatWaitedForIt() async throws {
        // Given a post that fails (400) with a reply waiting for it
        let harness = try MutationHarness()
        harness.faults.setFaultProfile(.offline)
        let post = try await harness.manager.enqueue(.post(text: " ", attachments: []))
        let reply = try await harness.manager.enqueue(
            .reply(to: post.localMediaID, text: "hi", attachments: []))
        harness.faults.setFaultProfile(.perfect)
        harness.manager.networkDidChange()
        await harness.manager.waitUntilIdle()
        #expect(Set(harness.manager.failed.map(\.token)) == [post, reply])

        // When the post is discarded
        try harness.manager.discard(post)

        // Then both are gone, from the lists and the feed
        #expect(harness.manager.failed.isEmpty)
        #expect(harness.manager.record(for: reply) == nil)
        #expect(try harness.homeFeed().allSatisfy { $0.status == .server })
        #expect(throws: MutationError.self) { try harness.manager.discard(post) }
        await harness.manager.stop()
    }

    @Test func retryAndDiscard_refuseMutationsThatHaveNotFailed() async throws {
        let harness = try MutationHarness(start: false)
        let token = try await harness.manager.enqueue(.like("m7"))

        let error = #expect(throws: MutationError.self) { try harness.manager.retry(token) }
        #expect(
            error?.message
                == "cannot retry mutation '\(token)': it is pending, and only failed mutations can be retried; "
                + "pending ones are sent on their own")
        #expect(throws: MutationError.self) { try harness.manager.discard(MutationToken("nope")) }
    }
}
