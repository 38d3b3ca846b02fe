import Foundation
import Synchronization

/// A clock whose time moves only when `advance(by:)` is called: deterministic tests and
/// headless runs (a script's `advance SECONDS`).
///
/// Advancing wakes every sleeper whose deadline has been reached, earliest deadline first
/// (ties in the order they began sleeping). Sleepers are resumed, not run: a woken task
/// continues on its executor after `advance` returns.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)); return clock.now }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(5))
/// _ = try await task.value      // clock's start + 5 s
/// ```
public final class ManualClock: WallClock {
    /// The instant a manual clock starts at unless told otherwise: 2024-05-01 12:00:00 UTC, the
    /// backend seed's epoch.
    public static let defaultStart = Date(timeIntervalSince1970: 1_714_564_800)

    private struct Sleeper {
        var id: Int
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Ids that were cancelled before their sleeper was registered.
        var cancelledEarly: Set<Int> = []
        var waiters: [Waiter] = []
    }

    private let state: Mutex<State>

    /// Makes a clock reading `start`.
    public init(start: Date = ManualClock.defaultStart) {
        state = Mutex(State(now: start))
    }

    /// The clock's current date.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks sleeping on the clock, in the order they began to sleep.
    public var sleeperDeadlines: [Date] { state.withLock { $0.sleepers.map(\.deadline) } }

    /// The earliest deadline of a sleeping task, if any.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Waits until `duration` has passed on this clock (someone advanced it that far).
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, waiters) = state.withLock {
                    state -> (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (continuation, []) }
                    let deadline = state.now.addingTimeInterval(duration.timeInterval)
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.readyWaiters(&state))
                }
                for waiter in waiters { waiter.resume() }
                resume?.resume(throwing: CancellationError())
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` (a negative duration is ignored) and wakes every sleeper
    /// whose deadline has been reached, earliest first.
    ///
    /// - Returns: how many sleepers were woken.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        guard duration > .zero else { return 0 }
        return advance(to: now.addingTimeInterval(duration.timeInterval))
    }

    /// Moves time forward to `date` (an earlier date is ignored) and wakes the sleepers whose
    /// deadline has been reached, earliest first.
    ///
    /// - Returns: how many sleepers were woken.
    @discardableResult
    public func advance(to date: Date) -> Int {
        let woken = state.withLock { state -> [Sleeper] in
            if date > state.now { state.now = date }
            let due = state.sleepers.enumerated()
                .filter { $0.element.deadline <= state.now }
                .sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
            let ids = Set(due.map(\.id))
            state.sleepers.removeAll { ids.contains($0.id) }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
        return woken.count
    }

    /// Sets time back by `duration` (a negative duration is ignored), as when a wall clock is
    /// stepped back by hand or by a time server. Sleepers keep the time they have left, as a sleep
    /// on a monotonic clock does, so their deadlines move back too.
    public func stepBack(by duration: Duration) {
        guard duration > .zero else { return }
        let seconds = duration.timeInterval
        state.withLock { state in
            state.now = state.now.addingTimeInterval(-seconds)
            for index in state.sleepers.indices {
                state.sleepers[index].deadline = state.sleepers[index].deadline.addingTimeInterval(-seconds)
            }
        }
    }

    /// Advances to the earliest sleeper's deadline, if anyone sleeps, waking it (and any sharing
    /// that deadline).
    ///
    /// - Returns: how many sleepers were woken.
    @discardableResult
    public func advanceToNextDeadline() -> Int {
        guard let deadline = nextDeadline else { return 0 }
        return advance(to: deadline)
    }

    /// Waits until at least `count` tasks are sleeping on the clock, so a test can advance only
    /// once the work it drives is waiting.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func readyWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
        state.waiters.removeAll { $0.count <= count }
        return ready
    }
}
