import Foundation

/// A task executor that runs every job on a new thread of its own.
///
/// For tests whose tasks block a thread on purpose (an enqueue that leads a commit waits for a
/// database another thread holds): run on the cooperative pool, the blocked task would take one
/// of its two threads, and any other test blocking the other one meanwhile would stall the whole
/// test process. Here a blocked job holds only its own thread.
final class ThreadPerJobExecutor: TaskExecutor, Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}
