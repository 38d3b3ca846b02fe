import Foundation
import Synchronization
import Testing
import Wire

/// An upstream that answers 200 and counts what reached it.
final class CountingTransport: Transport {
    let received = Mutex<[Request]>([])

    func send(_ request: Request) async throws(TransportError) -> Response {
        received.withLock { $0.append(request) }
        return Response(status: 200, body: Data("ok".utf8))
    }

    var count: Int { received.withLock { $0.count } }
}

@Suite struct FaultInjectingTransportTests {
    let request = Request(.post, "/v1/posts", headers: ["Idempotency-Key": "t1"])

    @Test func perfect_passesEveryRequestThrough() async throws {
        let upstream = CountingTransport()
        let transport = FaultInjectingTransport(upstream: upstream, profile: .perfect)
        for _ in 0..<20 { #expect(try await transport.send(request).status == 200) }
        #expect(upstream.count == 20)
        #expect(transport.statistics.delivered == 20)
    }

    @Test func offline_failsAtOnceWithoutReachingTheServer() async {
        let upstream = CountingTransport()
        let transport = FaultInjectingTransport(upstream: upstream, profile: .offline)
        await #expect {
            try await transport.send(request)
        } throws: { error in
            (error as? TransportError)?.errorClass == .offline
        }
        #expect(upstream.count == 0)
    }

    @Test func droppedResponse_isAppliedUpstreamButTheCallerSeesATimeout() async {
        // Given a transport told to lose the next response
        let upstream = CountingTransport()
        let transport = FaultInjectingTransport(upstream: upstream)
        transport.injectFaults([.dropResponseAfterApply])

        // When the request is sent
        var caught: TransportError?
        do { _ = try await transport.send(request) } catch { caught = error }

        // Then the server got it once and the caller got a retryable timeout
        #expect(upstream.count == 1)
        #expect(caught?.errorClass == .timeout)
        #expect(caught?.isRetryable == true)
    }

    @Test func scriptedServerErrorThenSuccess_answers500WithoutReachingTheServer() async throws {
        let upstream = CountingTransport()
        let transport = FaultInjectingTransport(upstream: upstream)
        transport.injectFaults([.serverError(status: 500), .deliver])
        let first = try await transport.send(request)
        let second = try await transport.send(request)
        #expect(first.status == 500)
        #expect(first.error(now: Date())?.serverCode == "injected_fault")
        #expect(second.status == 200)
        #expect(upstream.count == 1)
    }

    @Test func rateLimited_answers429WithARetryAfterTheClassifierReads() async throws {
        let transport = FaultInjectingTransport(upstream: CountingTransport())
        transport.injectFaults([.rateLimited(retryAfter: .seconds(30))])
        let response = try await transport.send(request)
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "30")
        #expect(response.error(now: Date())?.retryAfter == .seconds(30))
    }

    @Test func latency_isSleptOnTheClock() async throws {
        // Given 2 s of fixed latency on a manual clock
        let clock = ManualClock()
        let upstream = CountingTransport()
        let profile = FaultProfile(name: "fixed", latency: .fixed(.seconds(2)))
        let transport = FaultInjectingTransport(upstream: upstream, profile: profile, clock: clock)
        let request = request
        let task = Task { try await transport.send(request) }

        // When the request is waiting, it has not reached the server
        await clock.waitForSleepers(1)
        #expect(upstream.count == 0)
        clock.advance(by: .milliseconds(1999))
        #expect(upstream.count == 0)

        // Then once 2 s pass it goes through
        clock.advance(by: .milliseconds(1))
        #expect(try await task.value.status == 200)
        #expect(upstream.count == 1)
    }

    @Test func cancellingDuringLatency_throwsCancelled() async {
        let clock = ManualClock()
        let transport = FaultInjectingTransport(
            upstream: CountingTransport(), profile: FaultProfile(name: "slow", latency: .fixed(.seconds(9))),
            clock: clock)
        let request = request
        let task = Task { try await transport.send(request) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            (error as? TransportError)?.errorClass == .cancelled
        }
    }

    @Test(arguments: [UInt64(1), 7, 42])
    func sameSeed_replaysTheSameFaults(seed: UInt64) async {
        func outcomes(_ seed: UInt64) async -> [String] {
            let transport = FaultInjectingTransport(
                upstream: CountingTransport(),
                profile: FaultProfile(
                    name: "lossy", failureRate: 0.3,
                    dropResponseAfterApplyRate: 0.2, rateLimitRate: 0.1), seed: seed)
            var result: [String] = []
            for _ in 0..<200 {
                do { result.append(String(try await transport.send(request).status)) } catch {
                    result.append(error.errorClass.rawValue)
                }
            }
            return result
        }
        let first = await outcomes(seed)
        let again = await outcomes(seed)
        let other = await outcomes(seed &+ 1)
        #expect(first == again, "seed \(seed) did not replay")
        #expect(first != other, "seeds \(seed) and \(seed &+ 1) gave the same faults")
        // Every kind of outcome shows up in 200 draws at these rates.
        #expect(Set(first) == ["200", "503", "429", "timeout"], "seed \(seed)")
    }

    @Test func switchingTheProfile_endsA5xxBurst() async throws {
        // Given a profile whose every draw fails, in bursts of three, and one that never does
        let upstream = CountingTransport()
        let always = FaultProfile(name: "down", failureRate: 1, serverErrorStatus: 502, serverErrorBurst: 3)
        let transport = FaultInjectingTransport(upstream: upstream, profile: always)

        // When one request starts a burst, then the profile switches to one that never fails
        #expect(try await transport.send(request).status == 502)
        transport.setFaultProfile(
            FaultProfile(name: "rare", failureRate: 0, serverErrorStatus: 502, serverErrorBurst: 3))
        let afterSwitch = try await transport.send(request).status

        // Then switching the profile ended the burst: the next request got through
        #expect(afterSwitch == 200)
        #expect(upstream.count == 1)

    }

    @Test func lossy_losesWorkInBursts_andReplaysBySeed() async {
        func statuses(_ seed: UInt64) async -> [String] {
            let transport = FaultInjectingTransport(
                upstream: CountingTransport(), profile: .lossy, seed: seed)
            var result: [String] = []
            for _ in 0..<300 {
                do { result.append(String(try await transport.send(request).status)) } catch {
                    result.append(error.errorClass.rawValue)
                }
            }
            return result
        }
        let first = await statuses(5)
        #expect(first == (await statuses(5)), "seed 5 replays")
        // Every 503 burst is three long (or cut short by the end of the run).
        var runs: [Int] = []
        var run = 0
        for status in first {
            if status == "503" {
                run += 1
            } else if run > 0 {
                runs.append(run)
                run = 0
            }
        }
        #expect(!runs.isEmpty && runs.allSatisfy { $0 % 3 == 0 }, "503 runs: \(runs)")
        #expect(Set(first) == ["200", "503", "429", "timeout"])
        #expect(
            FaultProfile.lossy.description
                == "lossy (latency none, 503 20% x3, lost after apply 20%, 429 10%)")
    }

    @Test func switchingTheProfile_appliesToLaterRequests() async throws {
        let transport = FaultInjectingTransport(upstream: CountingTransport())
        #expect(try await transport.send(request).status == 200)
        transport.setFaultProfile(.offline)
        #expect(transport.faultProfile == .offline)
        await #expect(throws: TransportError.self) { try await transport.send(request) }
        transport.setFaultProfile(.perfect)
        #expect(try await transport.send(request).status == 200)
    }

    @Test func presets_areFoundByName() {
        #expect(FaultProfile.named("FLAKY") == .flaky)
        #expect(FaultProfile.named("offline")?.isOffline == true)
        #expect(FaultProfile.named("lunar") == nil)
        #expect(FaultProfile.presets.map(\.name) == ["perfect", "slow", "flaky", "lossy", "offline"])
        #expect(FaultProfile.named("lossy") == .lossy)
        #expect(FaultProfile(name: "x", failureRate: 7, dropResponseAfterApplyRate: -1).failureRate == 1)
    }

    @Test func longTailLatency_staysWithinSaneBoundsAndMostlyNearTheMedian() {
        let distribution = LatencyDistribution.longTail(median: .milliseconds(80), p99: .milliseconds(1500))
        var samples: [Duration] = []
        for index in 1..<1000 {
            samples.append(distribution.sample(Double(index) / 1000, Double((index * 7919) % 1000) / 1000))
        }
        samples.sort()
        #expect(samples[0] >= .zero)
        #expect(samples[samples.count / 2] < .milliseconds(400))
        #expect(samples[samples.count - 1] <= .seconds(3600))
    }
}
