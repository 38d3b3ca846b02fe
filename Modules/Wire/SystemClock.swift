import Foundation

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: WallClock {
    /// Makes the system clock.
    public init() {}

    /// The current date.
    public var now: Date { Date() }

    /// Sleeps on the continuous clock.
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else {
            try Task.checkCancellation()
            return
        }
        try await Task.sleep(for: duration)
    }
}
