import Features
import Foundation
import Wire

/// The clock the network side sees in a headless run: the app's manual time, but sleeps (fault
/// latency, lost-response timeouts) return at once. Requests then settle within a script's
/// `wait`, while app time (ages, backoff) moves only with `advance`.
package struct InstantNetworkClock: WallClock {
    /// The app's clock.
    package let base: any WallClock

    /// Wraps the app's clock.
    package init(base: any WallClock) {
        self.base = base
    }

    package var now: Date { base.now }

    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        await Task.yield()
    }
}
