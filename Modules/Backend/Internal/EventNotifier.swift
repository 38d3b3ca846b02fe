import Synchronization
import Wire

/// Wakes long polls of the event stream when an event for their user is written in this
/// process, or in another process on the same database when the database can tell
/// (PostgreSQL's notifications: `BackendCore.eventChannel`). Each user has a generation counter: a poll notes it before reading, then waits only
/// if nothing was written since, so an event written between the read and the wait is not
/// missed.
final class EventNotifier: Sendable {
    private struct Waiter {
        var user: Int64
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var generations: [Int64: Int] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The user's generation, to pass to `wait` after reading.
    func generation(of user: Int64) -> Int { state.withLock { $0.generations[user, default: 0] } }

    /// Records new events for `users` and wakes their polls.
    func notify(_ users: Set<Int64>) {
        guard !users.isEmpty else { return }
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            for user in users { state.generations[user, default: 0] += 1 }
            let ids = state.waiters.filter { users.contains($0.value.user) }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until an event for `user` is written after `generation`, `timeout` passes on
    /// `clock`, or the task is cancelled.
    func wait(for user: Int64, after generation: Int, timeout: Duration, clock: any WallClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForNotification(user: user, after: generation) }
            group.addTask { try? await clock.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForNotification(user: Int64, after generation: Int) async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if Task.isCancelled || state.generations[user, default: 0] != generation { return true }
                    state.waiters[id] = Waiter(user: user, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}
