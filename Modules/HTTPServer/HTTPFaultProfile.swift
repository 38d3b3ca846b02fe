import Wire

/// Faults the server adds on the real socket, for tests and demos: latency before the handler
/// runs, 5xx answers that never reach the handler, and connections closed after the handler
/// applied a change but before the response is written (the client sees the response lost and
/// must retry with the same `Idempotency-Key`).
///
/// Written as a profile string (`--faults PROFILE`); `syntax` is the reference:
///
/// ```swift
/// let profile = try HTTPFaultProfile(parsing: "latency=50ms,5xx=0.1,drop=0.2")
/// let presets = try HTTPFaultProfile(parsing: "flaky,seed=7")
/// ```
public struct HTTPFaultProfile: Hashable, Sendable, CustomStringConvertible {
    /// The profile's name: a preset's (`"flaky"`), or `"custom"`.
    public var name: String
    /// The delay before each request reaches the handler (or the injected 5xx is sent).
    public var latency: LatencyDistribution
    /// The share of requests (0...1) answered with `serverErrorStatus` without running the handler.
    public var serverErrorRate: Double
    /// The status those requests get (500...599).
    public var serverErrorStatus: Int
    /// The share of requests (0...1) with a method other than GET and HEAD whose connection is
    /// closed after the handler ran, before any byte of the response is written.
    public var dropAfterApplyRate: Double
    /// Seeds the draws, so a profile and a sequence of requests replay the same faults.
    public var seed: UInt64

    /// Makes a profile; rates are clamped to 0...1 and a status outside 500...599 becomes 503.
    public init(
        name: String = "custom", latency: LatencyDistribution = .none, serverErrorRate: Double = 0,
        serverErrorStatus: Int = 503, dropAfterApplyRate: Double = 0, seed: UInt64 = 1
    ) {
        self.name = name
        self.latency = latency
        self.serverErrorRate = Self.clamp(serverErrorRate)
        self.serverErrorStatus = (500...599).contains(serverErrorStatus) ? serverErrorStatus : 503
        self.dropAfterApplyRate = Self.clamp(dropAfterApplyRate)
        self.seed = seed
    }

    /// No faults.
    public static let none = HTTPFaultProfile(name: "none")

    /// 400 ms to 1.5 s before each request, no failures.
    public static let slow = HTTPFaultProfile(
        name: "slow", latency: .uniform(.milliseconds(400), .milliseconds(1500)))

    /// 20 to 300 ms before each request; 15% answered 503; 10% of changes applied, then the
    /// connection closed before the response.
    public static let flaky = HTTPFaultProfile(
        name: "flaky", latency: .uniform(.milliseconds(20), .milliseconds(300)), serverErrorRate: 0.15,
        dropAfterApplyRate: 0.10)

    /// Every change (any method but GET and HEAD) is applied, then its connection closed before
    /// the response: the mutation crash test's server side.
    public static let dropAfterApply = HTTPFaultProfile(name: "drop-after-apply", dropAfterApplyRate: 1)

    /// The presets by name, in the order `--help` lists them.
    public static let presets: [HTTPFaultProfile] = [.none, .slow, .flaky, .dropAfterApply]

    /// Whether the profile adds nothing.
    public var isNone: Bool { latency == .none && serverErrorRate == 0 && dropAfterApplyRate == 0 }

    /// `flaky (latency uniform(20 ms, 300 ms), 503 15%, drop after apply 10%, seed 1)`.
    public var description: String {
        guard !isNone else { return "\(name) (no faults)" }
        var parts: [String] = []
        if latency != .none { parts.append("latency \(latency)") }
        if serverErrorRate > 0 { parts.append("\(serverErrorStatus) \(Self.percent(serverErrorRate))") }
        if dropAfterApplyRate > 0 { parts.append("drop after apply \(Self.percent(dropAfterApplyRate))") }
        parts.append("seed \(seed)")
        return "\(name) (\(parts.joined(separator: ", ")))"
    }

    static func clamp(_ rate: Double) -> Double { rate.isNaN ? 0 : min(max(rate, 0), 1) }

    private static func percent(_ rate: Double) -> String {
        let value = rate * 100
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }
}
