import Foundation
import Synchronization
import Wire

/// Decodes uploaded photos on threads of its own, within the server's global budget: at most
/// ``Budget/threads`` photos at once and at most ``Budget/pixels`` decoded pixels held at once,
/// the others waiting in turn (first come, first served), and beyond ``Budget/maximumWaiting``
/// waiting a photo is refused with 503 at once rather than queued without bound.
///
/// Decoding blocks its thread for up to a second, so it never runs on the caller's: not the
/// concurrency pool's few threads (everything async in the process needs them), nor the HTTP
/// server's two handler threads (every other request, reads included, needs them). Callers
/// wait asynchronously, and the write transaction is taken only once every photo is ready.
final class PhotoDecodeGate: Sendable {
    /// What the whole process may spend on photos at once.
    struct Budget: Sendable {
        /// Photos decoded at once (the machine the figures were taken on has two cores).
        var threads = 2
        /// Decoded pixels held at once (``PhotoIntake/decodedPixels``): one photo of the largest
        /// size accepted, or several smaller ones.
        var pixels = PhotoIntake.maximumDecodedPixels
        /// Photos that may wait for a turn before more are refused with 503 `busy`.
        var maximumWaiting = 64
    }

    private struct Waiter {
        let pixels: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var pixels = 0
        var waiting: [Waiter] = []
        var decodeWillStart: (@Sendable () -> Void)?
    }

    let budget: Budget
    private let state: Mutex<State>

    init(budget: Budget = Budget()) {
        self.budget = budget
        state = Mutex(State())
    }

    /// Runs `body` (the decode of one photo holding `pixels` decoded pixels) on a thread of its
    /// own once the budget has room, and returns its result and how long it ran.
    ///
    /// - Throws: 503 `busy` when ``Budget/maximumWaiting`` photos are waiting already; what
    ///   `body` throws.
    func run<T: Sendable>(pixels: Int, _ body: @escaping @Sendable () throws -> T) async throws -> (
        T, Duration
    ) {
        let cost = min(max(pixels, 1), budget.pixels)
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.waiting.isEmpty, fits(cost, state) {
                    state.running += 1
                    state.pixels += cost
                    return true
                }
                guard state.waiting.count < budget.maximumWaiting else { return false }
                state.waiting.append(Waiter(pixels: cost, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
        guard admitted else {
            throw APIError(
                status: 503, code: "busy",
                message:
                    "too many photos are waiting to be decoded (\(budget.maximumWaiting)); retry shortly",
                headers: ["Retry-After": "1"])
        }
        let hook = state.withLock { $0.decodeWillStart }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(T, Duration), any Error>, Never>) in
            let thread = Thread {
                hook?()
                let clock = ContinuousClock()
                let start = clock.now
                continuation.resume(returning: Result { (try body(), clock.now - start) })
            }
            thread.name = "photo-decode"
            thread.start()
        }
        release(cost)
        return try result.get()
    }

    private func fits(_ cost: Int, _ state: State) -> Bool {
        state.running < budget.threads && state.pixels + cost <= budget.pixels
    }

    /// Gives back a photo's share and admits the waiters that now fit, oldest first (a large
    /// photo at the head is not overtaken, so it cannot starve).
    private func release(_ cost: Int) {
        let admitted = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.running -= 1
            state.pixels -= cost
            var admitted: [CheckedContinuation<Bool, Never>] = []
            while let next = state.waiting.first, fits(next.pixels, state) {
                state.waiting.removeFirst()
                state.running += 1
                state.pixels += next.pixels
                admitted.append(next.continuation)
            }
            return admitted
        }
        for continuation in admitted { continuation.resume(returning: true) }
    }

    /// Sets a hook run on the decoding thread just before each photo is decoded (tests hold a
    /// decode there to see what the server does meanwhile).
    func onDecodeWillStart(_ hook: (@Sendable () -> Void)?) {
        state.withLock { $0.decodeWillStart = hook }
    }
}
