/// The faults a `FaultInjectingTransport` adds to any transport: latency, server errors,
/// responses lost after the server applied the request, rate limiting, or no network at all.
///
/// Presets: `perfect`, `slow`, `flaky`, `lossy`, `offline` (the apps' `--network` flag).
///
/// ```swift
/// let transport = FaultInjectingTransport(upstream: inner, profile: .flaky, clock: clock, seed: 7)
/// ```
public struct FaultProfile: Hashable, Sendable, CustomStringConvertible {
    /// The profile's name (`"flaky"`).
    public var name: String
    /// How long each request takes before it reaches the server.
    public var latency: LatencyDistribution
    /// The share of requests (0...1) answered with `serverErrorStatus` without reaching the server.
    public var failureRate: Double
    /// The 5xx status failed requests get.
    public var serverErrorStatus: Int
    /// How many requests in a row a drawn 5xx fails (1 or more): a server that is down stays
    /// down for a few requests, so retries that come back at once fail too.
    public var serverErrorBurst: Int
    /// The share of requests (0...1) the server applies whose response is then lost: the caller
    /// sees a timeout after `dropTimeout`.
    public var dropResponseAfterApplyRate: Double
    /// The share of requests (0...1) answered 429 with `Retry-After: retryAfter` without reaching
    /// the server.
    public var rateLimitRate: Double
    /// The delay rate-limited responses ask for.
    public var retryAfter: Duration
    /// How long a caller waits for a lost response before it times out.
    public var dropTimeout: Duration
    /// Whether the network is down: every request fails with `offline` at once.
    public var isOffline: Bool

    /// Makes a profile; rates are clamped to 0...1.
    public init(
        name: String, latency: LatencyDistribution = .none, failureRate: Double = 0,
        serverErrorStatus: Int = 503, serverErrorBurst: Int = 1, dropResponseAfterApplyRate: Double = 0,
        rateLimitRate: Double = 0,
        retryAfter: Duration = .seconds(1), dropTimeout: Duration = .zero, isOffline: Bool = false
    ) {
        self.name = name
        self.latency = latency
        self.failureRate = Self.clamp(failureRate)
        self.serverErrorStatus = (500..<600).contains(serverErrorStatus) ? serverErrorStatus : 503
        self.serverErrorBurst = max(serverErrorBurst, 1)
        self.dropResponseAfterApplyRate = Self.clamp(dropResponseAfterApplyRate)
        self.rateLimitRate = Self.clamp(rateLimitRate)
        self.retryAfter = max(retryAfter, .zero)
        self.dropTimeout = max(dropTimeout, .zero)
        self.isOffline = isOffline
    }

    /// No latency, no faults.
    public static let perfect = FaultProfile(name: "perfect")

    /// A slow network: 400 ms to 1.5 s per request, no faults.
    public static let slow = FaultProfile(
        name: "slow", latency: .uniform(.milliseconds(400), .milliseconds(1500)))

    /// A bad network: long-tailed latency (median 80 ms, p99 1.5 s); 15% answered 503, 10%
    /// applied then lost (a timeout after 3 s), 5% rate limited (retry after 2 s).
    public static let flaky = FaultProfile(
        name: "flaky", latency: .longTail(median: .milliseconds(80), p99: .milliseconds(1500)),
        failureRate: 0.15, dropResponseAfterApplyRate: 0.10, rateLimitRate: 0.05, retryAfter: .seconds(2),
        dropTimeout: .seconds(3))

    /// A network that loses work rather than time: no latency; 20% of requests start a burst of
    /// three 503s, 10% are rate limited (retry after 5 s), and 20% are applied by the server and
    /// then lost (the caller times out at once). The retry schedule, not latency, is what it
    /// exercises.
    public static let lossy = FaultProfile(
        name: "lossy", failureRate: 0.20, serverErrorBurst: 3, dropResponseAfterApplyRate: 0.20,
        rateLimitRate: 0.10, retryAfter: .seconds(5))

    /// No network: every request fails with `offline`.
    public static let offline = FaultProfile(name: "offline", isOffline: true)

    /// The named presets, in the order `--network` lists them.
    public static let presets: [FaultProfile] = [.perfect, .slow, .flaky, .lossy, .offline]

    /// The preset named `name` (`"flaky"`), or nil.
    public static func named(_ name: String) -> FaultProfile? {
        presets.first { $0.name == name.lowercased() }
    }

    /// `flaky (latency longTail(...), 503 15%, lost after apply 10%, 429 5%)`; a burst is
    /// written after the rate (`503 20% x3`).
    public var description: String {
        if isOffline { return "\(name) (offline)" }
        var parts = ["latency \(latency)"]
        if failureRate > 0 {
            let burst = serverErrorBurst > 1 ? " x\(serverErrorBurst)" : ""
            parts.append("\(serverErrorStatus) \(Self.percent(failureRate))\(burst)")
        }
        if dropResponseAfterApplyRate > 0 {
            parts.append("lost after apply \(Self.percent(dropResponseAfterApplyRate))")
        }
        if rateLimitRate > 0 { parts.append("429 \(Self.percent(rateLimitRate))") }
        return "\(name) (\(parts.joined(separator: ", ")))"
    }

    private static func clamp(_ rate: Double) -> Double { rate.isNaN ? 0 : min(max(rate, 0), 1) }

    private static func percent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }
}
