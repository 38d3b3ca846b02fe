import Synchronization

/// Counts the app's outstanding work (loads, refreshes, the hops that apply their results), so
/// a headless script's `wait` can return exactly when everything started so far has finished.
///
/// `begin()` may be called from any thread (say, a store's change callback) and `end()` when
/// the work's result has been applied; `idle()` returns once the count is zero.
package final class WorkTracker: Sendable {
    private struct State {
        var outstanding = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Makes a tracker with nothing outstanding.
    package init() {}

    /// How much work is outstanding.
    package var outstanding: Int { state.withLock { $0.outstanding } }

    /// Counts one piece of work as started.
    package func begin() {
        state.withLock { $0.outstanding += 1 }
    }

    /// Counts one piece of work as finished.
    package func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.outstanding = max(0, state.outstanding - 1)
            guard state.outstanding == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs `work` on the main actor as a tracked task; the task is returned so a newer request
    /// can cancel one that is now stale.
    @MainActor @discardableResult
    package func run(_ work: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        begin()
        return Task { @MainActor in
            await work()
            self.end()
        }
    }

    /// Returns once nothing is outstanding.
    package func idle() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.outstanding == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
