import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGINT and SIGTERM into an awaitable event: the first wakes `firstSignal()`, the
/// second runs `onRepeat` (which exits at once).
final class SignalWatcher: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Int32, Never>] = []
        var first: Int32?
    }

    private let state = Mutex(State())
    private let onRepeat: @Sendable () -> Void

    /// Ignores the signals' default actions; call `source(for:)` for each to deliver them here.
    init(onRepeat: @escaping @Sendable () -> Void) {
        self.onRepeat = onRepeat
    }

    /// A dispatch source delivering `number` to this watcher; keep it alive while watching.
    func source(for number: Int32) -> any DispatchSourceSignal {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { [self] in received(number) }
        source.resume()
        return source
    }

    /// Waits for the first signal and returns its number.
    func firstSignal() async -> Int32 {
        await withCheckedContinuation { continuation in
            let first = state.withLock { state -> Int32? in
                if let first = state.first { return first }
                state.waiters.append(continuation)
                return nil
            }
            if let first { continuation.resume(returning: first) }
        }
    }

    private func received(_ number: Int32) {
        let (count, waiters) = state.withLock { state in
            state.count += 1
            if state.first == nil { state.first = number }
            defer { state.waiters = [] }
            return (state.count, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: number) }
        if count >= 2 { onRepeat() }
    }
}
