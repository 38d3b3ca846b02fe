import Foundation
import Synchronization
import Wire

/// Wakes the sender: a flag set by `fire` and consumed by `wait`, which also returns at a
/// deadline on the manager's clock (a `ManualClock` deadline passes only when it is advanced)
/// or when its task is cancelled.
final class WakeSignal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next `wait` if none waits now.
    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.fired = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when fired (now or since the last wait), at `deadline`, or on cancellation.
    func wait(until deadline: Date?, clock: any WallClock) async {
        if state.withLock({ state in
            defer { state.fired = false }
            return state.fired
        }) {
            return
        }
        var timer: Task<Void, Never>?
        if let deadline {
            let milliseconds = Int64((deadline.timeIntervalSince(clock.now) * 1000).rounded(.up))
            guard milliseconds > 0 else { return }
            timer = Task { [weak self] in
                do {
                    try await clock.sleep(for: .milliseconds(milliseconds))
                    self?.fire()
                } catch {}
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.fired {
                        state.fired = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
        timer?.cancel()
    }
}
