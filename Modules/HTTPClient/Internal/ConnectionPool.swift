import Dispatch
import Synchronization

/// The client's connections to one server: at most `capacity` in use at once (an exchange's
/// thread waits for a slot, never the caller), and the idle keep-alive connections kept for
/// the next read.
final class ConnectionPool: Sendable {
    private let slots: DispatchSemaphore
    private let idle = Mutex<[ClientConnection]>([])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = DispatchSemaphore(value: self.capacity)
    }

    deinit { for connection in idle.withLock({ $0 }) { connection.close() } }

    /// Waits for a slot until `deadline`; false if none came in time.
    func acquireSlot(until deadline: DispatchTime) -> Bool { slots.wait(timeout: deadline) == .success }

    /// Gives a slot back.
    func releaseSlot() { slots.signal() }

    /// The most recently used idle connection, if any.
    func takeIdle() -> ClientConnection? { idle.withLock { $0.popLast() } }

    /// Keeps `connection` for a later read (closing it when `capacity` are kept already).
    func keep(_ connection: ClientConnection) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < capacity else { return false }
            idle.append(connection)
            return true
        }
        if !kept { connection.close() }
    }
}
