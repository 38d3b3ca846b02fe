import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

@Suite(.timeLimit(mutationSuiteHangLimit)) struct AttemptLogTests {
    @Test func theLog_keepsOnlyTheNewestAttempts() async throws {
        // Given a log bounded to 5 attempts and a like that fails 7 times (offline) then goes
        var configuration = MutationHarness.configuration()
        configuration.attemptLogLimit = 5
        let harness = try MutationHarness(configuration: configuration)
        harness.faults.injectFaults(Array(repeating: .offline, count: 7))
        let token = try await harness.manager.enqueue(.like("m7"))

        // When it has been attempted 8 times
        await harness.advance(by: .seconds(300), step: .seconds(5))

        // Then the log holds the last 5, in order, ending with the confirmation
        let log = try harness.manager.attemptLog(limit: 100)
        #expect(log.map(\.attempt) == [4, 5, 6, 7, 8])
        #expect(log.map(\.outcome) == [.retry, .retry, .retry, .retry, .confirmed])
        #expect(log.allSatisfy { $0.token == token && $0.kind == .like })
        #expect(try harness.manager.attemptLog(limit: 2).map(\.attempt) == [7, 8])
        await harness.manager.stop()
    }

    @Test func backoff_growsWithinItsCeilings_andTheSameSeedGivesTheSameDelays() async throws {
        func delays(seed: UInt64) async throws -> [Duration] {
            var configuration = MutationHarness.configuration(seed: seed)
            configuration.retryPolicies[.like] = RetryPolicy(base: .seconds(2), cap: .seconds(10))
            let harness = try MutationHarness(seed: seed, configuration: configuration)
            harness.faults.setFaultProfile(.offline)
            let token = try await harness.manager.enqueue(.like("m7"))
            await harness.advance(by: .seconds(60), step: .seconds(1))
            await harness.manager.stop()
            return try harness.manager.attemptLog(for: token).compactMap(\.delay).prefix(6).map { $0 }
        }
        let first = try await delays(seed: 11)
        let again = try await delays(seed: 11)
        let other = try await delays(seed: 12)

        #expect(first == again)
        #expect(first != other)
        let ceilings: [Duration] = [
            .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10),
        ]
        #expect(first.count == 6)
        #expect(zip(first, ceilings).allSatisfy { $0 <= $1 })
    }

    @Test func theNextAttemptTime_survivesARestart() async throws {
        // Given a like waiting for its retry after a 503
        let harness = try MutationHarness()
        harness.faults.injectFaults([.serverError(status: 503), .serverError(status: 503)])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        await harness.advance(by: .seconds(1))
        let next = try #require(harness.manager.record(for: token)?.nextAttemptAt)
        #expect(next > harness.clock.now)

        // When the app restarts
        try await harness.restart()

        // Then it still waits for the same time: not a moment before, and goes then
        #expect(harness.manager.record(for: token)?.nextAttemptAt == next)
        harness.clock.advance(to: next.addingTimeInterval(-0.001))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: token)?.attempts == 2)
        #expect(harness.manager.isIdle())
        harness.clock.advance(to: next)
        #expect(!harness.manager.isIdle())
        await harness.manager.waitUntilIdle()
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        await harness.manager.stop()
    }

    @Test func theFormatter_printsOneAlignedLinePerAttempt() {
        let start = Date(timeIntervalSince1970: 1_714_564_800)
        let attempts = [
            MutationAttempt(
                token: MutationToken("3f6c0b9e-aaaa"), kind: .like, attempt: 1, startedAt: start,
                endedAt: start.addingTimeInterval(0.25), outcome: .retry, status: 503,
                errorClass: .serverError,
                delay: .milliseconds(734), detail: "PUT /v1/posts/m7/like: server error: HTTP 503"),
            MutationAttempt(
                token: MutationToken("3f6c0b9e-aaaa"), kind: .like, attempt: 2, startedAt: start,
                endedAt: start.addingTimeInterval(1.5), outcome: .confirmed, detail: "replayed"),
            MutationAttempt(
                token: MutationToken("77"), kind: .unfollow, attempt: 12, startedAt: start,
                endedAt: start.addingTimeInterval(3661), outcome: .failed, status: 400,
                errorClass: .badRequest,
                detail: String(repeating: "x", count: 30)),
        ]

        let text = AttemptLogFormatter(detailWidth: 20).format(attempts)

        #expect(
            text == """
                12:00:00.250  like      3f6c0b9e  #1   retry           503  server error   next in 0.734s  PUT /v1/posts/m7/li…
                12:00:01.500  like      3f6c0b9e  #2   confirmed       -    -              -               replayed
                13:01:01.000  unfollow  77        #12  failed          400  bad request    -               xxxxxxxxxxxxxxxxxxx…
                """)
    }
}
