import Dispatch
import Foundation
import Glibc
import Synchronization

/// The threads the server's handlers run on: each request's handler is a task that prefers this
/// executor, so the event loop's thread only moves bytes while these run handlers.
///
/// Two threads by default, on a two-core machine: the backend serves its reads (the feed, a
/// thread, a profile) from a pool of read-only connections, so two handlers run side by side;
/// writes still take turns on the one connection that writes. More threads than cores would
/// only take turns with the loop and the clients. A handler that suspends (a long poll, a
/// latency fault) frees its thread while it waits.
///
/// Jobs wait in one first-in, first-out queue; a thread takes the oldest, runs it, and sleeps
/// only when the queue stays empty while it yields its core `spinLimit` times: under load the
/// next request is microseconds away, and a futex sleep and wake-up for each one cost (`bench
/// http`, 2026-11-29) 25-33 us of the HTTP layer's CPU per request against 18-22 us with the
/// yields, nginx's whole cost being 17 us. A job arriving while a thread sleeps wakes one.
///
/// After `stop`, the threads run what is queued and exit; jobs that arrive later (handlers
/// cancelled at shutdown, finishing up) run on Dispatch's global queue.
final class HandlerExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// The index of the oldest job not taken yet.
        var head = 0
        /// Threads waiting on `wakeUp`, each owed one signal.
        var sleeping = 0
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts `threads` threads (at least one).
    init(threads: Int = 2) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in
                Posix.nameThisThread("http-handlers-\(index)")
                work()
            }
            thread.name = "http-handlers-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (queued, wake) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.stopped else { return (false, false) }
            queue.jobs.append(job)
            guard queue.sleeping > 0 else { return (true, false) }
            queue.sleeping -= 1
            return (true, true)
        }
        if wake { wakeUp.signal() }
        if !queued {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }

    /// Lets the threads exit once the queued jobs have run.
    func stop() {
        let sleepers = queue.withLock { queue -> Int in
            queue.stopped = true
            defer { queue.sleeping = 0 }
            return queue.sleeping
        }
        for _ in 0..<sleepers { wakeUp.signal() }
    }

    /// How many times a thread that found no job yields before it sleeps.
    static let spinLimit = 16

    private func work() {
        let executor = asUnownedTaskExecutor()
        var spins = 0
        while true {
            let willSleep = spins >= Self.spinLimit
            let (job, stopped) = queue.withLock { queue -> (UnownedJob?, Bool) in
                guard queue.head < queue.jobs.count else {
                    if !queue.stopped && willSleep { queue.sleeping += 1 }
                    return (nil, queue.stopped)
                }
                let job = queue.jobs[queue.head]
                queue.head += 1
                if queue.head == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.head = 0
                } else if queue.head > 1024 && queue.head * 2 > queue.jobs.count {
                    // A queue that never drains under sustained load drops what was taken.
                    queue.jobs.removeFirst(queue.head)
                    queue.head = 0
                }
                return (job, queue.stopped)
            }
            guard let job else {
                if stopped { return }
                if !willSleep {
                    // Under load the next job is usually a few microseconds away: yield the core
                    // (to the loop, or a client on the same machine) and look again before
                    // sleeping, which costs a futex wait and a wake-up.
                    spins += 1
                    sched_yield()
                    continue
                }
                spins = 0
                wakeUp.wait()
                continue
            }
            spins = 0
            job.runSynchronously(on: executor)
        }
    }
}
