import Glibc
import Synchronization

/// Lets a caller end an exchange's blocking I/O from another thread without waiting for it: the
/// exchange registers the socket it is using, and `abandon()` (the deadline, or the caller's
/// cancellation) shuts that socket down, which wakes a blocked connect, read or write at once.
///
/// The exchange's thread alone closes its sockets, always after `detach()`, so `abandon()` never
/// shuts a descriptor number that has since been closed and reused.
final class ExchangeControl: Sendable {
    private struct State {
        var fd: Int32?
        var abandoned = false
    }

    private let state = Mutex(State())

    /// Registers the socket in use; false (and nothing registered) when already abandoned.
    func attach(_ fd: Int32) -> Bool {
        state.withLock { state in
            guard !state.abandoned else { return false }
            state.fd = fd
            return true
        }
    }

    /// Unregisters the socket before it is closed or pooled; true when the exchange was
    /// abandoned (its socket may have been shut down: it must not be reused).
    @discardableResult
    func detach() -> Bool {
        state.withLock { state in
            state.fd = nil
            return state.abandoned
        }
    }

    /// Whether the caller gave up on the exchange.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Gives up on the exchange: shuts down its registered socket, if any.
    func abandon() {
        state.withLock { state in
            state.abandoned = true
            if let fd = state.fd { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}
