import Foundation

/// Where time comes from: the current date and a way to wait. Backend timestamps, fault
/// latency and retry backoff all read one, so a `ManualClock` makes a whole run deterministic.
///
/// ```swift
/// let clock: any WallClock = ManualClock()
/// try await clock.sleep(for: .seconds(2))   // returns when someone advances the clock 2 s
/// ```
public protocol WallClock: Sendable {
    /// The current date.
    var now: Date { get }

    /// Waits until `duration` has passed on this clock. A zero or negative duration returns at
    /// once.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}

extension Duration {
    /// The duration as seconds, with sub-second precision.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }
}
