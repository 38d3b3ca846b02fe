import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// Next-attempt times are absolute: a clock that moves back (or a run whose clock was advanced
/// by hand) must never leave a change waiting longer than its retry policy's cap.
@Suite(.timeLimit(mutationSuiteHangLimit)) struct DueTimeClampTests {
    static let day = Duration.seconds(86_400)

    @Test func aClockSteppedBackADay_acrossARestart_leavesTheRetryWithinTheCap() async throws {
        // Given a like waiting for its retry after a 500
        let harness = try MutationHarness()
        harness.faults.injectFaults([.serverError(status: 500)])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()
        #expect(harness.manager.record(for: token)?.nextAttemptAt != nil)

        // When the app starts again on a clock stepped back one day
        harness.clock.stepBack(by: Self.day)
        try await harness.restart()

        // Then the retry is due within the policy's 60-second cap, and goes out then
        let next = try #require(harness.manager.record(for: token)?.nextAttemptAt)
        #expect(next <= harness.clock.now.addingTimeInterval(60))
        await harness.advance(by: .seconds(60))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        await harness.manager.stop()
    }

    @Test func aRunWhoseClockWasAdvancedADay_leavesNoWaitForTheNextLaunch() async throws {
        // Given a headless run whose clock was advanced a day, leaving a like rate-limited there
        let harness = try MutationHarness()
        harness.clock.advance(by: Self.day)
        harness.faults.injectFaults([.rateLimited(retryAfter: .seconds(30))])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // When the next launch reads the real time, a day earlier
        await harness.manager.stop()
        harness.clock.stepBack(by: Self.day)
        try await harness.restart()

        // Then the like is sent within the cap, not a day later
        await harness.advance(by: .seconds(60))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        await harness.manager.stop()
    }

    @Test func aClockSteppedBackWhileRunning_isNoticedAtTheNextReading() async throws {
        // Given a like waiting for its retry after a 500
        let harness = try MutationHarness()
        harness.faults.injectFaults([.serverError(status: 500)])
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // When the clock is stepped back a day while the app runs
        harness.clock.stepBack(by: Self.day)

        // Then the like still goes out within the cap of the next reading (a second later)
        await harness.advance(by: .seconds(61))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        let next = harness.manager.record(for: token)?.nextAttemptAt
        #expect(next == nil, "confirmed, not waiting until \(String(describing: next))")
        await harness.manager.stop()
    }

    @Test func aRetryAfterLongerThanTheCap_isCappedToo() async throws {
        // Given a server that asks for a retry in a day
        let harness = try MutationHarness()
        harness.faults.injectFaults([.rateLimited(retryAfter: Self.day)])

        // When a like is refused that way
        let token = try await harness.manager.enqueue(.like("m7"))
        await harness.manager.waitUntilIdle()

        // Then it waits the policy's cap of 60 seconds, and is sent then
        #expect(try harness.manager.attemptLog(for: token).map(\.delay) == [.seconds(60)])
        await harness.advance(by: .seconds(60))
        #expect(harness.handlings(of: token).map(\.applied) == [true])
        await harness.manager.stop()
    }
}
