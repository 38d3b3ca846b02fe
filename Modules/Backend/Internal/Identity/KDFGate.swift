import Foundation
import Synchronization
import Wire

/// Runs password hashes on threads of their own, at most `capacity` at once in this process,
/// the others waiting in turn (first come, first served), so a flood of sign-ins takes at most
/// `capacity` times one hash's memory. Beyond `maximumWaiting` waiting, a request is refused with
/// 503 at once rather than queued without bound.
///
/// A hash blocks its thread for tens of milliseconds, so it runs on a thread of its own, never
/// the caller's: not the concurrency pool's few threads (everything async in the process needs
/// them) nor the HTTP server's handler threads (every other request needs them). Callers wait
/// asynchronously.
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

    /// Runs `body` on the gate's threads once a slot is free; 503 `busy` when too many are
    /// waiting already.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
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
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            let thread = Thread { continuation.resume(returning: Result { try body() }) }
            thread.name = "password-hash"
            thread.start()
        }
        release()
        return try result.get()
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
