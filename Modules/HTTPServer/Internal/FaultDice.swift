import Basics
import Wire

/// The fault profile in force and its seeded draws: four per request whatever the profile, so a
/// seed replays the same faults for the same sequence of requests.
struct FaultDice: Sendable {
    /// What the profile decided for one request.
    struct Decision: Sendable {
        /// Wait this long before the handler (or the injected status).
        var latency: Duration = .zero
        /// Answer with this status instead of running the handler.
        var injectedStatus: Int?
        /// Close the connection after the handler ran, instead of responding.
        var drop = false

        var isNone: Bool { latency == .zero && injectedStatus == nil && !drop }
    }

    private(set) var profile: HTTPFaultProfile
    private var random: SplitMix64

    init(_ profile: HTTPFaultProfile) {
        self.profile = profile
        random = SplitMix64(seed: profile.seed)
    }

    /// Draws the faults for a request with `method`.
    mutating func decide(for method: HTTPMethod) -> Decision {
        guard !profile.isNone else { return Decision() }
        let draws = (random.unit(), random.unit(), random.unit(), random.unit())
        var decision = Decision()
        decision.latency = profile.latency.sample(draws.0, draws.1)
        if draws.2 < profile.serverErrorRate {
            decision.injectedStatus = profile.serverErrorStatus
        } else if method != .get && method != .head && draws.3 < profile.dropAfterApplyRate {
            decision.drop = true
        }
        return decision
    }
}
