import Foundation
import Wire

/// The clock the network side sees in a headless run: the app's manual time, but sleeps (fault
/// latency, lost-response timeouts) return at once. Requests then settle within a script's
/// `wait`, while app time (ages, backoff) moves only with `advance`.
public struct InstantNetworkClock: WallClock {
    /// The app's clock.
    public let base: any WallClock

    /// Wraps the app's clock.
    public init(base: any WallClock) {
        self.base = base
    }

    public var now: Date { base.now }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        await Task.yield()
    }
}
