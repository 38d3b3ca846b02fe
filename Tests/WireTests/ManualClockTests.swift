import Foundation
import Synchronization
import Testing
import Wire

@Suite struct ManualClockTests {
    @Test func sleeper_wakesOnlyOnceTimeReachesItsDeadline() async throws {
        // Given a task sleeping 5 s on a manual clock
        let clock = ManualClock()
        let start = clock.now
        let task = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)

        // When time moves 4 s, nobody wakes; at 5 s the sleeper does
        #expect(clock.advance(by: .seconds(4)) == 0)
        #expect(clock.sleeperCount == 1)
        #expect(clock.advance(by: .seconds(1)) == 1)
        try await task.value

        // Then the clock reads exactly start + 5 s
        #expect(clock.now == start.addingTimeInterval(5))
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingPastSeveralDeadlines_wakesEarliestFirst() async throws {
        let clock = ManualClock()
        let order = Recorder<Int>()
        let tasks = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                order.append(seconds)
            }
        }
        await clock.waitForSleepers(3)
        // Advance one deadline at a time so resumption order is observable.
        while clock.advanceToNextDeadline() > 0 {
            let woken = order.count
            while order.count == woken { await Task.yield() }
        }
        for task in tasks { try await task.value }
        #expect(order.all == [1, 2, 3])
    }

    @Test func cancellingASleeper_throwsCancellationAndRemovesIt() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func zeroSleep_returnsAtOnce() async throws {
        let clock = ManualClock()
        try await clock.sleep(for: .zero)
        try await clock.sleep(for: .seconds(-1))
        #expect(clock.now == ManualClock.defaultStart)
    }

    @Test func advancingBackwards_changesNothing() {
        let clock = ManualClock()
        clock.advance(to: ManualClock.defaultStart.addingTimeInterval(-100))
        clock.advance(by: .seconds(-3))
        #expect(clock.now == ManualClock.defaultStart)
    }

    @Test func systemClock_sleepsForReal() async throws {
        let clock = SystemClock()
        let before = clock.now
        try await clock.sleep(for: .milliseconds(5))
        #expect(clock.now > before)
    }
}

/// Values appended from several tasks, in arrival order.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}
