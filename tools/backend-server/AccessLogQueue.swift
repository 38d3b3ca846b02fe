import Dispatch
import Synchronization

/// Carries access log lines off the server's event loop to standard output, on a thread of
/// their own, and drops lines rather than let the log slow or stop the server.
///
/// The event loop calls `append` for every request; the line waits in a queue of at most
/// `capacity` lines and is written by `DescriptorOutput` (which loses it if standard output is
/// gone). When the reader is slower than the requests (a terminal paused with Ctrl-S, a pipe
/// nobody drains), the queue fills and new lines are counted in `dropped` instead of waiting.
final class AccessLogQueue: Sendable {
    /// The most lines waiting to be written.
    let capacity: Int
    private let queue = DispatchQueue(label: "backend-server.access-log")
    private let state = Mutex((waiting: 0, dropped: 0))

    /// Makes a queue that holds up to `capacity` lines.
    init(capacity: Int = 1024) { self.capacity = capacity }

    /// Queues `line` for standard output, or drops it when `capacity` lines are waiting.
    func append(_ line: String) {
        let accepted = state.withLock { state in
            guard state.waiting < capacity else {
                state.dropped += 1
                return false
            }
            state.waiting += 1
            return true
        }
        guard accepted else { return }
        queue.async { [self] in
            DescriptorOutput.write(line, to: 1)
            state.withLock { $0.waiting -= 1 }
        }
    }

    /// How many lines were dropped because the queue was full.
    var dropped: Int { state.withLock { $0.dropped } }
}
