import Glibc
import Synchronization

/// The process-wide record of the started terminal, so that every exit path can put it back:
/// `Terminal.restore()`, the signal handlers, and an `atexit` hook.
///
/// Restoring is idempotent: the session is taken out under the lock, so whichever path comes
/// first restores and the others find nothing to do.
final class TerminalRestorer: Sendable {
    /// The one restorer of the process.
    static let shared = TerminalRestorer()

    /// A started terminal: where it is and how to undo and redo what was changed.
    struct Session: Sendable {
        let input: Int32
        let output: Int32
        let original: termios
        let raw: termios
        let enterSequence: [UInt8]
        let exitSequence: [UInt8]
    }

    private struct State {
        var session: Session?
        var isSuspended = false
        var isAtExitInstalled = false
        /// Written once when the terminal is put back for good (not on a suspend): commands that
        /// free what the session left in the terminal, such as transmitted images.
        var farewell: [UInt8] = []
    }

    private let state = Mutex(State())

    /// Records `session` as the started terminal and applies it (raw mode, enter sequence).
    /// Installs the `atexit` hook the first time.
    func begin(_ session: Session) throws(TerminalError) {
        let installAtExit: Bool = try state.withLock { (state) throws(TerminalError) -> Bool in
            guard state.session == nil else { throw TerminalError.alreadyActive() }
            var raw = session.raw
            guard tcsetattr(session.input, TCSAFLUSH, &raw) == 0 else {
                throw TerminalError.systemCall("tcsetattr", fileDescriptor: session.input, errno: errno)
            }
            state.session = session
            state.isSuspended = false
            defer { state.isAtExitInstalled = true }
            return !state.isAtExitInstalled
        }
        FileDescriptorIO.writeAll(session.output, session.enterSequence)
        if installAtExit {
            atexit { TerminalRestorer.shared.endAtExit() }
        }
    }

    /// Sets what is written, before the exit sequence, when the terminal is put back for good
    /// (`end()`, a terminating signal, `exit()`); a suspend does not write it.
    func setFarewell(_ bytes: [UInt8]) {
        state.withLock { $0.farewell = bytes }
    }

    /// Whether a terminal is started.
    var isActive: Bool { state.withLock { $0.session != nil } }

    /// Puts the terminal back as it was and forgets the session; false when there was none.
    @discardableResult
    func end() -> Bool {
        let ended = state.withLock { state -> (Session, Bool, [UInt8])? in
            guard let session = state.session else { return nil }
            let wasSuspended = state.isSuspended
            state.session = nil
            state.isSuspended = false
            defer { state.farewell = [] }
            return (session, wasSuspended, state.farewell)
        }
        guard let (session, wasSuspended, farewell) = ended else { return false }
        FileDescriptorIO.writeAll(session.output, farewell)
        if !wasSuspended { Self.undo(session) }
        return true
    }

    /// Puts the terminal back while the process is stopped; the session stays.
    @discardableResult
    func suspend() -> Bool {
        let session = state.withLock { state -> Session? in
            guard let session = state.session, !state.isSuspended else { return nil }
            state.isSuspended = true
            return session
        }
        guard let session else { return false }
        Self.undo(session)
        return true
    }

    /// Applies the session again after a stop (raw mode, enter sequence); false when there is
    /// no session.
    @discardableResult
    func resume() -> Bool {
        // Under the lock, so no frame is written between the flag and the enter sequence.
        state.withLock { state -> Bool in
            guard let session = state.session else { return false }
            state.isSuspended = false
            var raw = session.raw
            _ = tcsetattr(session.input, TCSANOW, &raw)
            FileDescriptorIO.writeAll(session.output, session.enterSequence)
            return true
        }
    }

    /// Writes `bytes` unless the terminal is suspended, under the lock that suspending and
    /// resuming take: a frame never lands between the sequence that leaves the terminal and the
    /// one that enters it again.
    func writeUnlessSuspended(_ output: Int32, _ bytes: [UInt8]) {
        state.withLock { state in
            guard !state.isSuspended else { return }
            FileDescriptorIO.writeAll(output, bytes)
        }
    }

    /// The `atexit` path: restores unless another thread holds the lock right now.
    private func endAtExit() {
        let ended = state.withLockIfAvailable { state -> (Session, Bool, [UInt8])? in
            guard let session = state.session else { return nil }
            let wasSuspended = state.isSuspended
            state.session = nil
            defer { state.farewell = [] }
            return (session, wasSuspended, state.farewell)
        }
        guard let (session, wasSuspended, farewell) = ended ?? nil else { return }
        FileDescriptorIO.writeAll(session.output, farewell)
        if !wasSuspended { Self.undo(session) }
    }

    private static func undo(_ session: Session) {
        FileDescriptorIO.writeAll(session.output, session.exitSequence)
        var original = session.original
        _ = tcsetattr(session.input, TCSAFLUSH, &original)
    }
}
