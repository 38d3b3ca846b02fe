import Dispatch
import Foundation
import Glibc
import Synchronization

/// Reads the terminal's bytes on a thread of its own, parses them and yields events, so the
/// UI actor never blocks on input. Terminal replies go to their own stream, never to the events.
///
/// The thread waits in `poll(2)` on the input and on a wake-up pipe; while an ESC is held
/// back it polls with the escape timeout and flushes the parser when nothing follows. The
/// parser lives on that thread only.
final class InputReader: Sendable {
    private let input: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let escapeTimeout: Int32
    private let continuation: AsyncStream<InputEvent>.Continuation
    private let replies: AsyncStream<TerminalReply>.Continuation
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex(State.idle)

    /// Who closes the wake-up pipe: `stop()`, once the thread has ended; or the thread itself,
    /// when `stop()` gave up waiting for it (`abandoned`). Never both, and never while the other
    /// may still use it, so no write or poll ever reaches a descriptor number reused meanwhile.
    private enum State {
        case idle
        case running
        /// `stop()` woke the thread and waits for it.
        case stopping
        /// The thread has ended; the pipe is still open.
        case finished
        /// `stop()` returned before the thread ended; the thread closes the pipe as it ends.
        case abandoned
        /// The pipe is closed.
        case stopped
    }

    init(
        input: Int32, escapeTimeoutMilliseconds: Int, continuation: AsyncStream<InputEvent>.Continuation,
        replies: AsyncStream<TerminalReply>.Continuation
    ) throws(TerminalError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw TerminalError.systemCall("pipe", fileDescriptor: input, errno: errno)
        }
        self.input = input
        self.wakeRead = fds[0]
        self.wakeWrite = fds[1]
        self.escapeTimeout = Int32(clamping: max(escapeTimeoutMilliseconds, 1))
        self.continuation = continuation
        self.replies = replies
    }

    /// Starts the reading thread (once).
    func start() {
        let shouldStart = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .running
            return true
        }
        guard shouldStart else { return }
        let thread = Thread { [self] in
            run()
            let closes = state.withLock { state -> Bool in
                if case .abandoned = state {
                    state = .stopped
                    return true
                }
                state = .finished
                return false
            }
            if closes { closePipe() }
            finished.signal()
        }
        thread.name = "TerminalUI.input"
        thread.start()
    }

    /// Stops the thread and waits (up to a second) until it no longer reads; idempotent. A thread
    /// that a busy machine has not run within the second ends at its next wake-up, closing the
    /// pipe itself.
    func stop() {
        enum Action { case wake, close, nothing }
        let action = state.withLock { state -> Action in
            switch state {
            case .running:
                state = .stopping
                return .wake
            case .idle, .finished:
                state = .stopped
                return .close
            case .stopping, .abandoned, .stopped:
                return .nothing
            }
        }
        switch action {
        case .wake:
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
            _ = finished.wait(timeout: .now() + 1)
            let closes = state.withLock { state -> Bool in
                if case .finished = state {
                    state = .stopped
                    return true
                }
                state = .abandoned
                return false
            }
            if closes { closePipe() }
        case .close:
            closePipe()
        case .nothing:
            break
        }
    }

    private func closePipe() {
        close(wakeRead)
        close(wakeWrite)
    }

    private func run() {
        var parser = KeyParser()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let timeout: Int32 = parser.isAwaitingMore ? escapeTimeout : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                for event in parser.flush() { continuation.yield(event) }
                continue
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count > 0 {
                for event in parser.parse(buffer[0..<count]) { continuation.yield(event) }
                for reply in parser.takeReplies() { replies.yield(reply) }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                // End of input (the terminal went away) or a hard error.
                continuation.finish()
                replies.finish()
                return
            }
        }
    }
}
