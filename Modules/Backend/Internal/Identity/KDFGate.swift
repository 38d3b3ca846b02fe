import Synchronization
import Wire

/// Lets at most `capacity` password hashes run at once in this process, the others waiting in
/// turn (first come, first served), so a flood of sign-ins takes at most `capacity` times one
/// hash's memory. Beyond `maximumWaiting` waiting, a request is refused with 503 at once rather
/// than queued without bound.
final class KDFGate: Sendable {
    /// The process's gate: two hashes at once (the machine the figures were taken on has two
    /// cores, and each hash holds 32 MiB).
    static let shared = KDFGate(capacity: 2, maximumWaiting: 256)

    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    let capacity: Int
    let maximumWaiting: Int
    private let state = Mutex(State())

    init(capacity: Int, maximumWaiting: Int) {
        self.capacity = capacity
        self.maximumWaiting = maximumWaiting
    }

    /// Runs `body` once a slot is free; 503 `busy` when too many are waiting already.
    func run<T>(_ body: () throws -> T) async throws -> T {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.running < capacity {
                    state.running += 1
                    return true
                }
                guard state.waiting.count < maximumWaiting else { return false }
                state.waiting.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
        guard admitted else {
            throw APIError(
                status: 503, code: "busy",
                message:
                    "too many sign-ins are being checked at once (\(maximumWaiting) waiting); retry shortly",
                headers: ["Retry-After": "1"])
        }
        defer { release() }
        return try body()
    }

    /// Hands the slot to the oldest waiter, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
    }
}
