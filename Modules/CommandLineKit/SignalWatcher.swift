import Dispatch
import Glibc
import Synchronization

/// Delivers signals to a handler on a serial queue of its own, where anything may be done.
///
/// A minimal C handler (installed with `sigaction`) writes the signal's number to a
/// process-wide pipe, which is async-signal-safe; a Dispatch read source on the pipe calls the
/// handler. Installing saves each signal's previous action and `uninstall()` puts it back, so
/// afterwards the process reacts to signals exactly as before. One watcher is installed at a
/// time in a process (they share the pipe).
///
/// ```swift
/// let watcher = SignalWatcher()
/// watcher.install([SIGINT, SIGTERM]) { signal in shutDown(after: signal) }
/// ```
///
/// Why not `DispatchSource.makeSignalSource`: on Linux, libdispatch registers signal sources
/// asynchronously (a signal sent right after they are made is lost), installs a process-wide
/// handler the first time that it never removes (so SIGINT stays swallowed after the sources
/// are cancelled), and does not install it again for a second registration.
public final class SignalWatcher: Sendable {
    private struct State {
        var source: (any DispatchSourceRead)?
        var previous: [(signal: Int32, action: sigaction)] = []
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// A watcher whose handler runs on a serial queue named `label`.
    public init(label: String = "CommandLineKit.signals") {
        queue = DispatchQueue(label: label)
    }

    /// Starts watching `signals`, replacing any earlier installation. Once it returns, each of
    /// them reaches `handler` (with its number), in the order they arrived, one at a time.
    public func install(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        uninstall()
        let pipe = SignalPipe.shared
        guard pipe.readEnd >= 0 else { return }
        SignalPipe.drain()
        let queue = self.queue
        state.withLock { state in
            let source = DispatchSource.makeReadSource(fileDescriptor: pipe.readEnd, queue: queue)
            source.setEventHandler {
                for signalNumber in SignalPipe.drain() { handler(signalNumber) }
            }
            source.resume()
            state.source = source
            for signalNumber in signals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = signalPipeHandler
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                var previous = sigaction()
                if sigaction(signalNumber, &action, &previous) == 0 {
                    state.previous.append((signalNumber, previous))
                }
            }
        }
    }

    /// Stops watching and gives the signals their previous actions back.
    public func uninstall() {
        state.withLock { state in
            for (signalNumber, action) in state.previous {
                var previous = action
                sigaction(signalNumber, &previous, nil)
            }
            state.source?.cancel()
            state = State()
        }
    }
}

/// The process-wide pipe from the C signal handler to the watcher.
private struct SignalPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// Made once, on first use (before any handler that writes to it is installed); never
    /// closed. Both ends are non-blocking: a full pipe drops the byte instead of blocking
    /// in a signal handler.
    static let shared: SignalPipe = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return SignalPipe(readEnd: -1, writeEnd: -1) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return SignalPipe(readEnd: fds[0], writeEnd: fds[1])
    }()

    /// Reads every pending signal number.
    @discardableResult
    static func drain() -> [Int32] {
        var numbers: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(shared.readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            numbers += buffer[0..<count].map { Int32($0) }
        }
        return numbers
    }
}

/// The signal handler: writes the signal number to the pipe (async-signal-safe), keeping
/// `errno`.
private func signalPipeHandler(_ signalNumber: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(SignalPipe.shared.writeEnd, &byte, 1)
    errno = savedErrno
}
