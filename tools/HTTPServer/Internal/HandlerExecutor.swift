import Dispatch
import Foundation
import Synchronization

/// The thread the server's handlers run on: each request's handler is a task that prefers this
/// executor, so the event loop's thread only moves bytes while this one runs handlers, and the
/// two overlap on two cores.
///
/// One thread, on purpose: the backend's handlers serialize on one SQLite connection, whose
/// lock (a `Mutex`, waiting on Linux's priority-inheriting futex) makes threads that contend for
/// it spin instead of sleep, taking the cores the loop and the clients need. A handler that
/// suspends (a long poll, a latency fault) frees the thread while it waits.
///
/// Jobs are handed over in batches: the thread takes every queued job under one lock and runs
/// them in order, and is woken only when it had gone to sleep, so a busy server pays one lock
/// per batch on each side and no wake-up per request.
///
/// After `stop`, the thread runs what is queued and exits; jobs that arrive later (handlers
/// cancelled at shutdown, finishing up) run on Dispatch's global queue.
final class HandlerExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var sleeping = false
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts the thread.
    init() {
        let thread = Thread { [self] in work() }
        thread.name = "http-handlers"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (queued, wake) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.stopped else { return (false, false) }
            queue.jobs.append(job)
            defer { queue.sleeping = false }
            return (true, queue.sleeping)
        }
        if wake { wakeUp.signal() }
        if !queued {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }

    /// Lets the thread exit once the queued jobs have run.
    func stop() {
        let wake = queue.withLock { queue -> Bool in
            queue.stopped = true
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        if wake { wakeUp.signal() }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            let stopped = queue.withLock { queue -> Bool in
                swap(&queue.jobs, &batch)
                if batch.isEmpty && !queue.stopped { queue.sleeping = true }
                return queue.stopped
            }
            if batch.isEmpty {
                if stopped { return }
                wakeUp.wait()
                continue
            }
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
