import Features
import Foundation
import Mutations
import Wire

/// Asks the server again while it cannot be reached, so the title bar's `offline` goes within
/// seconds of it coming back, without the person doing anything: 1 s after it was found
/// unreachable, then 2 s, then every ``cap`` until an answer comes (the reachability observer
/// then stops it). The asks move on the session's clock: a manual one moves them only when a
/// test or script advances it, and `settle()` starts one that has come due.
@MainActor
final class ReachabilityProbe {
    /// The longest wait between two asks.
    static let cap: Duration = .seconds(4)
    private static let policy = RetryPolicy(base: .seconds(1), cap: cap)

    private let clock: any WallClock
    private let ask: @MainActor () -> Void
    /// Asks made since the server was found unreachable.
    private var failures = 0
    /// When the next ask is due, while the server cannot be reached.
    private var due: Date?
    private var timer: Task<Void, Never>?

    /// A probe that calls `ask` (a cheap request through the app's client) when one is due.
    init(clock: any WallClock, ask: @escaping @MainActor () -> Void) {
        self.clock = clock
        self.ask = ask
    }

    /// The server could not be reached: the next ask is scheduled (once; later failures while
    /// waiting change nothing).
    func serverUnreachable() {
        guard due == nil else { return }
        schedule()
    }

    /// The server answered: no more asks.
    func serverReachable() {
        failures = 0
        cancel()
    }

    /// Starts the ask if it has come due on the clock; returns whether one was started.
    @discardableResult
    func startIfDue() -> Bool {
        guard let due, due <= clock.now else { return false }
        self.due = nil
        timer?.cancel()
        timer = nil
        failures += 1
        ask()
        // Still unreachable after it: the next one, unless an answer stops it first.
        schedule()
        return true
    }

    /// Stops asking (the session stops).
    func cancel() {
        due = nil
        timer?.cancel()
        timer = nil
    }

    private func schedule() {
        let wait = failures == 0 ? Self.policy.base : Self.policy.ceiling(afterFailures: failures)
        let (seconds, attoseconds) = wait.components
        due = clock.now.addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
        let clock = clock
        timer = Task { @MainActor [weak self] in
            do {
                try await clock.sleep(for: wait)
            } catch {
                return
            }
            self?.startIfDue()
        }
    }
}
