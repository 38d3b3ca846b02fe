import Basics
import Foundation
import Synchronization

/// Wraps any transport and adds the faults of a `FaultProfile`: latency (slept on a
/// `WallClock`), 5xx answers (alone or in bursts) and 429s that never reach the server, responses lost after the
/// server applied the request, or no network at all.
///
/// Draws come from a generator seeded at creation, the same number per request whatever the
/// profile, so a
/// seed replays the same faults for the same sequence of requests. Outcomes queued with
/// `injectFaults` are taken first.
///
/// ```swift
/// let transport = FaultInjectingTransport(upstream: inner, profile: .flaky, clock: clock, seed: 42)
/// transport.injectFaults([.serverError(status: 500), .deliver])
/// transport.setFaultProfile(.offline)
/// ```
public final class FaultInjectingTransport: Transport, FaultControl {
    /// Counts of what happened to the requests sent so far.
    public struct Statistics: Hashable, Sendable {
        /// Requests sent through the transport.
        public var requests = 0
        /// Requests the upstream transport answered (including responses then lost).
        public var delivered = 0
        /// Requests answered with an injected 5xx.
        public var serverErrors = 0
        /// Requests answered with an injected 429.
        public var rateLimited = 0
        /// Requests applied upstream whose response was then lost.
        public var droppedAfterApply = 0
        /// Requests failed as offline.
        public var offline = 0
    }

    private struct State {
        var profile: FaultProfile
        var generator: SplitMix64
        var script: [ScriptedFault] = []
        /// The 5xx answers still owed by a burst in progress.
        var burstLeft = 0
        var statistics = Statistics()
    }

    /// The transport requests go to when they get through.
    public let upstream: any Transport
    /// The clock latency and lost-response timeouts are slept on.
    public let clock: any WallClock
    private let state: Mutex<State>

    /// Wraps `upstream`.
    ///
    /// - Parameters:
    ///   - upstream: the transport requests go to when they get through.
    ///   - profile: the faults to add; switch later with `setFaultProfile`.
    ///   - clock: where latency is slept (a `ManualClock` makes tests deterministic).
    ///   - seed: seeds the draws.
    public init(
        upstream: any Transport, profile: FaultProfile = .perfect, clock: any WallClock = SystemClock(),
        seed: UInt64 = 0
    ) {
        self.upstream = upstream
        self.clock = clock
        state = Mutex(State(profile: profile, generator: SplitMix64(seed: seed)))
    }

    /// The profile in force.
    public var faultProfile: FaultProfile { state.withLock { $0.profile } }

    /// Switches the profile for requests that start from now on.
    /// A burst of 5xx in progress ends.
    public func setFaultProfile(_ profile: FaultProfile) {
        state.withLock {
            $0.profile = profile
            $0.burstLeft = 0
        }
    }

    /// Queues outcomes for the next requests, before the profile's random draws.
    public func injectFaults(_ faults: [ScriptedFault]) { state.withLock { $0.script += faults } }

    /// What happened to the requests so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Sends `request` through the profile's faults.
    ///
    /// - Throws: `offline` (no network), `timeout` (response lost after apply), `cancelled`.
    public func send(_ request: Request) async throws(TransportError) -> Response {
        if Task.isCancelled { throw .cancelled() }
        let (profile, outcome, latency) = state.withLock { state in
            state.statistics.requests += 1
            let draws = (0..<4).map { _ in state.generator.unit() }
            let extra = state.generator.unit()
            let profile = state.profile
            let outcome: ScriptedFault
            if !state.script.isEmpty {
                outcome = state.script.removeFirst()
            } else if profile.isOffline {
                outcome = .offline
            } else if state.burstLeft > 0 {
                state.burstLeft -= 1
                outcome = .serverError(status: profile.serverErrorStatus)
            } else if draws[1] < profile.failureRate {
                state.burstLeft = profile.serverErrorBurst - 1
                outcome = .serverError(status: profile.serverErrorStatus)
            } else if draws[2] < profile.rateLimitRate {
                outcome = .rateLimited(retryAfter: profile.retryAfter)
            } else if draws[3] < profile.dropResponseAfterApplyRate {
                outcome = .dropResponseAfterApply
            } else {
                outcome = .deliver
            }
            switch outcome {
            case .offline: state.statistics.offline += 1
            case .serverError: state.statistics.serverErrors += 1
            case .rateLimited: state.statistics.rateLimited += 1
            case .dropResponseAfterApply, .deliver: break
            }
            return (profile, outcome, profile.latency.sample(draws[0], extra))
        }
        let named = "\(request.method) \(request.path)"
        if case .offline = outcome {
            throw TransportError(
                .offline, "the network is offline (fault profile '\(profile.name)')", request: named)
        }
        try await pause(latency, request: named)
        switch outcome {
        case .serverError(let status):
            return .error(
                status, code: "injected_fault",
                message: "the server is unavailable (fault profile '\(profile.name)'); retry later")
        case .rateLimited(let delay):
            return .error(
                429, code: "rate_limited",
                message: "too many requests (fault profile '\(profile.name)'); retry after the delay",
                headers: ["Retry-After": RetryAfter.format(delay)])
        case .dropResponseAfterApply:
            _ = try await upstream.send(request)
            state.withLock {
                $0.statistics.delivered += 1
                $0.statistics.droppedAfterApply += 1
            }
            try await pause(profile.dropTimeout, request: named)
            throw TransportError(
                .timeout,
                "the response was lost after the server applied the request (fault profile '\(profile.name)')",
                request: named)
        case .deliver, .offline:
            let response = try await upstream.send(request)
            state.withLock { $0.statistics.delivered += 1 }
            return response
        }
    }

    private func pause(_ duration: Duration, request: String) async throws(TransportError) {
        guard duration > .zero else { return }
        do {
            try await clock.sleep(for: duration)
        } catch {
            throw TransportError(.cancelled, "the request was cancelled while in flight", request: request)
        }
    }
}
