import Foundation

/// How long a request takes to travel: none, fixed, uniform, or long-tailed.
public enum LatencyDistribution: Hashable, Sendable, CustomStringConvertible {
    /// No latency.
    case none
    /// Always the same.
    case fixed(Duration)
    /// Uniform between two bounds (inclusive of the lower).
    case uniform(Duration, Duration)
    /// Log-normal with the given median and 99th percentile: mostly quick, sometimes slow.
    case longTail(median: Duration, p99: Duration)

    /// A latency for two uniform draws in [0, 1).
    ///
    /// Complexity: O(1).
    public func sample(_ first: Double, _ second: Double) -> Duration {
        switch self {
        case .none:
            return .zero
        case .fixed(let value):
            return max(value, .zero)
        case .uniform(let low, let high):
            let lower = min(low, high).timeInterval
            let upper = max(low, high).timeInterval
            return Self.duration(lower + (upper - lower) * first)
        case .longTail(let median, let p99):
            // Box-Muller for a standard normal, then exp(mu + sigma * z).
            let mu = log(max(median.timeInterval, 1e-6))
            let sigma = max(0, log(max(p99.timeInterval, 1e-6)) - mu) / 2.326
            let z = (-2 * log(max(first, 1e-12))).squareRoot() * cos(2 * Double.pi * second)
            return Self.duration(min(exp(mu + sigma * z), 3600))
        }
    }

    /// `uniform(50 ms, 600 ms)`.
    public var description: String {
        switch self {
        case .none: "none"
        case .fixed(let value): "fixed(\(value))"
        case .uniform(let low, let high): "uniform(\(low), \(high))"
        case .longTail(let median, let p99): "longTail(median: \(median), p99: \(p99))"
        }
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
    }
}
