import Synchronization

/// Runs async work with a time limit, without waiting past it for work that ignores
/// cancellation.
enum Deadline {
    /// Runs `operation` in a new task; returns true when it finished within `timeout`, false when
    /// the time ran out first (the task is then cancelled and left to finish on its own).
    static func run(within timeout: Duration, _ operation: @escaping @Sendable () async -> Void) async -> Bool
    {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.begin(continuation)
            let work = Task {
                await operation()
                race.finish(true)
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if race.finish(false) { work.cancel() }
            }
            race.onFinish { timer.cancel() }
        }
    }

    /// One continuation resumed by whichever side finishes first.
    private final class Race: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Bool, Never>?
            var finished = false
            var cleanup: (@Sendable () -> Void)?
        }

        private let state = Mutex(State())

        func begin(_ continuation: CheckedContinuation<Bool, Never>) {
            state.withLock { $0.continuation = continuation }
        }

        func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                if state.finished { return true }
                state.cleanup = cleanup
                return false
            }
            if runNow { cleanup() }
        }

        @discardableResult
        func finish(_ value: Bool) -> Bool {
            let (continuation, cleanup): (CheckedContinuation<Bool, Never>?, (@Sendable () -> Void)?) =
                state.withLock {
                    state in
                    guard !state.finished else { return (nil, nil) }
                    state.finished = true
                    defer {
                        state.continuation = nil
                        state.cleanup = nil
                    }
                    return (state.continuation, state.cleanup)
                }
            guard let continuation else { return false }
            continuation.resume(returning: value)
            cleanup?()
            return true
        }
    }
}
