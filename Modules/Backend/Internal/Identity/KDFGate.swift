import Foundation
import Synchronization
import Wire

/// Runs password hashes on threads of their own, at most `capacity` at once in this process,
/// the others waiting in line, so a flood of sign-ins takes at most `capacity` times one hash's
/// memory.
///
/// The waiting is fair between client addresses: each address has a line of its own, at most
/// `maximumWaitingPerAddress` long, and a slot that frees goes to the next address in turn
/// (round robin), first come first served within an address. So a flood from one address waits
/// behind itself and cannot take the turns of anyone else: another address's sign-in waits for
/// at most one run per address ahead of it. Over its line's length, a run is refused at once with
/// 429 `too_many_sign_ins`; over `maximumWaiting` in all, with 503 `busy` (both with
/// `Retry-After`). The caller names the line: the backend gives requests without an address (sent
/// in process) a line of its own per backend, so two backends in one process never fill each
/// other's.
///
/// A hash blocks its thread for tens of milliseconds, so it runs on a thread of its own, never
/// the caller's: not the concurrency pool's few threads (everything async in the process needs
/// them) nor the HTTP server's handler threads (every other request needs them). Callers wait
/// asynchronously.
///
/// Complexity: O(1) to queue a run and to hand a slot on (amortised).
final class KDFGate: Sendable {
    /// The process's gate: two hashes at once (the machine the figures were taken on has two
    /// cores, and each hash holds 32 MiB), 1,024 waiting, at most 32 of them from one address (a
    /// waiting run is a suspended task of a few hundred bytes; an office behind one address may
    /// sign in many people at once, and they still take turns with everyone else).
    static let shared = KDFGate(capacity: 2, maximumWaiting: 1024, maximumWaitingPerAddress: 32)

    private struct State {
        var running = 0
        var refused = 0
        /// The waiting runs by address; an address is here only while its line is not empty.
        var lines: [String: Line<CheckedContinuation<Admission, Never>>] = [:]
        /// The addresses with waiting runs, in the order they take turns.
        var turns = Line<String>()
        var waiting = 0
    }

    /// A first-in first-out line of waiting continuations (or of addresses).
    private struct Line<Element> {
        var items: [Element] = []
        var head = 0
        var count: Int { items.count - head }

        mutating func append(_ item: Element) { items.append(item) }

        mutating func removeFirst() -> Element? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head > 32 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    private enum Admission {
        case now
        case queued
        case lineFull
        case gateFull
    }

    let capacity: Int
    let maximumWaiting: Int
    let maximumWaitingPerAddress: Int
    private let state = Mutex(State())

    init(capacity: Int, maximumWaiting: Int, maximumWaitingPerAddress: Int = 8) {
        self.capacity = capacity
        self.maximumWaiting = maximumWaiting
        self.maximumWaitingPerAddress = maximumWaitingPerAddress
    }

    /// Runs `body` on the gate's threads once `address` has its turn and a slot is free; 429
    /// `too_many_sign_ins` when that address already has its share waiting, 503 `busy` when the
    /// gate is full.
    func run<T: Sendable>(for address: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let admission = await withCheckedContinuation {
            (continuation: CheckedContinuation<Admission, Never>) in
            let admission = state.withLock { state -> Admission in
                if state.running < capacity && state.waiting == 0 {
                    state.running += 1
                    return .now
                }
                let line = state.lines[address]?.count ?? 0
                guard line < maximumWaitingPerAddress else {
                    state.refused += 1
                    return .lineFull
                }
                guard state.waiting < maximumWaiting else {
                    state.refused += 1
                    return .gateFull
                }
                if line == 0 { state.turns.append(address) }
                state.lines[address, default: Line()].append(continuation)
                state.waiting += 1
                return .queued
            }
            if admission != .queued { continuation.resume(returning: admission) }
        }
        switch admission {
        case .now, .queued:
            break
        case .lineFull:
            throw APIError(
                status: 429, code: "too_many_sign_ins",
                message: "too many sign-ins from this address are waiting for their passwords to be "
                    + "checked (at most \(maximumWaitingPerAddress)); wait for them, then retry",
                headers: ["Retry-After": "1"])
        case .gateFull:
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

    /// How many runs are waiting for a slot now (tests wait for a queue to fill).
    var waitingCount: Int { state.withLock { $0.waiting } }
    /// How many runs of `address`'s line are waiting now.
    func waitingCount(for address: String) -> Int { state.withLock { $0.lines[address]?.count ?? 0 } }
    /// How many runs hold a slot now.
    var runningCount: Int { state.withLock { $0.running } }
    /// How many runs were refused so far.
    var refusedCount: Int { state.withLock { $0.refused } }

    /// Hands the slot to the first waiter of the address whose turn it is (that address goes to
    /// the back of the turns when it has more waiting), or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Admission, Never>? in
            guard let key = state.turns.removeFirst(), var line = state.lines[key],
                let continuation = line.removeFirst()
            else {
                state.running -= 1
                return nil
            }
            state.waiting -= 1
            if line.count > 0 {
                state.lines[key] = line
                state.turns.append(key)
            } else {
                state.lines[key] = nil
            }
            return continuation
        }
        next?.resume(returning: .queued)
    }
}
