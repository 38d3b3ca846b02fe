/// How long to wait before retrying a mutation after a retryable failure: exponential backoff
/// with full jitter. The n-th consecutive failure waits a uniformly random time between zero and
/// `min(cap, base × 2^(n-1))`; a `Retry-After` from the server is honored instead.
///
/// ```swift
/// var configuration = MutationManager.Configuration()
/// configuration.retryPolicies[.post] = RetryPolicy(base: .milliseconds(500), cap: .seconds(30))
/// ```
public struct RetryPolicy: Hashable, Sendable {
    /// The ceiling of the first retry's delay.
    public var base: Duration
    /// The largest ceiling: the ceiling doubles per failure until it reaches this.
    public var cap: Duration

    /// Makes a policy; a negative base or cap counts as zero, and the cap is at least the base.
    public init(base: Duration, cap: Duration) {
        self.base = max(base, .zero)
        self.cap = max(cap, self.base)
    }

    /// 1 second doubling to a 60-second cap.
    public static let standard = RetryPolicy(base: .seconds(1), cap: .seconds(60))

    /// The ceiling of the delay after `failures` consecutive retryable failures (1 or more).
    ///
    /// Complexity: O(1).
    public func ceiling(afterFailures failures: Int) -> Duration {
        let exponent = min(max(failures, 1) - 1, 62)
        let capSeconds = cap.secondsValue
        let scaled = base.secondsValue * Double(UInt64(1) << UInt64(exponent))
        return .seconds(min(scaled, capSeconds))
    }

    /// A delay with full jitter: `unit` (a uniform draw in 0..<1) times the ceiling, rounded to
    /// milliseconds.
    public func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let seconds = ceiling(afterFailures: failures).secondsValue * min(max(unit, 0), 1)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
