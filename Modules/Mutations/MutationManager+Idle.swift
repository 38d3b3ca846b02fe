import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// Whether nothing is in flight and nothing is due at `now` (default: the clock's time):
    /// every pending mutation waits for a later time, or for a post that waits, and so does the
    /// retry of any journal write the database refused. Always true while
    /// the sender is stopped (nothing can happen then).
    ///
    /// A headless script's `wait` is `waitUntilIdle()`; with a `ManualClock`, backoff timers
    /// fire only when the script advances it.
    public func isIdle(now: Date? = nil) -> Bool {
        let milliseconds = (now ?? clock.now).wireMilliseconds
        return state.withLock { Self.isIdle($0, now: milliseconds) }
    }

    /// Returns once `isIdle()` holds: nothing in flight, nothing due at the clock's current time
    /// (or when the calling task is cancelled).
    public func waitUntilIdle() async {
        await withTaskCancellationHandler {
            await waitForIdleness()
        } onCancel: {
            wakeIdleWaiters()
        }
    }

    private func waitForIdleness() async {
        var firstLook = true
        while !Task.isCancelled {
            let nudge = firstLook
            firstLook = false
            let idle = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = self.now
                let idle = state.withLock { state -> Bool in
                    clampDueTimes(&state, now: now)
                    if Self.isIdle(state, now: now) { return true }
                    state.idleWaiters.append(continuation)
                    return false
                }
                if idle {
                    continuation.resume(returning: true)
                } else if nudge {
                    // Something is due: make sure the sender looks now, even if its timer was set
                    // on a manual clock that has just been advanced past it. Only once: after that
                    // every pass of the sender wakes this waiter, and nudging on each wake would
                    // spin the two against each other for as long as a request is in flight.
                    signal.fire()
                }
            }
            if idle { return }
        }
    }

    static func isIdle(_ state: State, now: Int64) -> Bool {
        guard state.running else { return true }
        return state.queue.inFlight.isEmpty && !state.queue.hasWork(now: now) && state.retirements.isEmpty
            && (state.unsavedRetryAt.map { $0 > now } ?? true)
    }

    /// Lets idle waiters look again (after a pass of the sender changed what is due).
    func wakeIdleWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
