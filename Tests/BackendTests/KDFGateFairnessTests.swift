import Dispatch
import Synchronization
import Testing

@testable import Backend

/// The password-hash gate shares its turns between client addresses: a flood from one address
/// waits in its own line and cannot take the turns of another.
@Suite struct KDFGateFairnessTests {
    @Test func aFloodFromOneAddress_leavesRoomForAnother_andTakesTurnsWithIt() async throws {
        // Given a gate of one slot and 16 waiting places (at most 8 for one address), its slot
        // held by a run from address A
        let gate = KDFGate(capacity: 1, maximumWaiting: 16, maximumWaitingPerAddress: 8)
        let hold = DispatchSemaphore(value: 0)
        let order = OrderLog()
        let holder = Task { try await gate.run(for: "198.51.100.1") { hold.wait() } }
        try await waitUntil { gate.runningCount == 1 }
        // When A sends 30 more runs, then B sends 3
        let flood = (0..<30).map { index in
            Task { () -> Bool in
                do {
                    try await gate.run(for: "198.51.100.1") { order.append("A\(index)") }
                    return true
                } catch { return false }
            }
        }
        try await waitUntil { gate.waitingCount + gate.refusedCount == 30 }
        let others = (0..<3).map { index in
            Task { () -> Bool in
                do {
                    try await gate.run(for: "203.0.113.7") { order.append("B\(index)") }
                    return true
                } catch { return false }
            }
        }
        try await waitUntil { gate.waitingCount + gate.refusedCount == 33 }
        hold.signal()
        try await holder.value
        var floodServed = 0
        for task in flood where await task.value { floodServed += 1 }
        var othersServed = 0
        for task in others where await task.value { othersServed += 1 }
        // Then every run of B was served, A had only its share of the waiting places, and B's
        // runs took turns with A's instead of waiting behind all of them
        #expect(othersServed == 3)
        #expect(floodServed == 8)
        let runs = order.entries
        #expect(runs.count == 11)
        #expect(runs.prefix(6).filter { $0.hasPrefix("B") }.count == 3, "\(runs)")
    }
}

/// Waits (suspending, never blocking) until `condition` holds; a 5-minute hang guard. (It was 60 s,
/// and a fresh clone's full run on 2 cores once passed 60 s here: the tasks had no thread, the
/// cooperative pool's two busy with other suites' blocking work. Only a hung gate runs into it.)
private func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(300)
    while !condition() {
        try #require(ContinuousClock.now < deadline, "the gate never reached the expected state")
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// The order runs happened in, appended from the gate's threads.
private final class OrderLog: Sendable {
    private let lock = Mutex<[String]>([])
    func append(_ entry: String) { lock.withLock { $0.append(entry) } }
    var entries: [String] { lock.withLock { $0 } }
}
