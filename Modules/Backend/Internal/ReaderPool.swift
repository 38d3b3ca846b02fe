import Storage
import Synchronization

/// Read-only connections to the backend's file (`PRAGMA query_only`), beside the one connection
/// that writes, so requests that only read (the feed, a thread, a profile) run side by side
/// instead of queueing on the writer's lock. WAL lets them: each read is one deferred
/// transaction, a snapshot of the newest committed state when it starts, so a read that follows
/// a write's response sees it, and the statements of one response agree with each other.
///
/// Connections open on demand, up to `capacity`, so a backend that never serves two reads at
/// once (an app's embedded one at launch) opens one, on its first read. A read takes an idle
/// connection, else opens one, else waits its turn on one of them.
final class ReaderPool: Sendable {
    private struct State {
        var all: [Database] = []
        var idle: [Database] = []
        var closed = false
    }

    private let path: String
    private let capacity: Int
    private let open: @Sendable () throws -> Database
    private let state = Mutex(State())
    private let next = Atomic<Int>(0)

    /// A pool of at most `capacity` (at least one) connections to the file at `path`.
    convenience init(path: String, capacity: Int) {
        self.init(location: path, capacity: capacity) {
            let reader = try Database(path: path, options: Database.Options(synchronous: .normal))
            try reader.execute("PRAGMA query_only = 1")
            return reader
        }
    }

    /// A pool of at most `capacity` (at least one) connections that `open` makes (each one
    /// read-only), to the database at `location`.
    init(location: String, capacity: Int, open: @escaping @Sendable () throws -> Database) {
        self.path = location
        self.capacity = max(1, capacity)
        self.open = open
    }

    /// Runs `body` in one read transaction on a reader.
    ///
    /// - Throws: what `body` throws; `StorageError` when a reader cannot be opened or the pool
    ///   is closed.
    func read<T>(_ body: (borrowing Connection) throws -> T) throws -> T {
        let (reader, owned) = try checkOut()
        defer { if owned { state.withLock { $0.idle.append(reader) } } }
        return try reader.transaction(.deferred, body)
    }

    /// An idle reader or a new one (owned: give it back), else a busy one to wait on.
    private func checkOut() throws -> (Database, owned: Bool) {
        try state.withLock { state throws -> (Database, owned: Bool) in
            guard !state.closed else {
                throw StorageError(
                    code: .misuse, message: "the backend is closed; open a new one for '\(path)'", path: path)
            }
            if let reader = state.idle.popLast() { return (reader, true) }
            if state.all.count < capacity {
                let reader = try open()
                state.all.append(reader)
                return (reader, true)
            }
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return (state.all[index % state.all.count], false)
        }
    }

    /// A new read-only connection like the pool's, for a caller that keeps it (not in the pool).
    func openConnection() throws -> Database { try open() }

    /// Closes every reader; later reads throw.
    func close() {
        let readers = state.withLock { state -> [Database] in
            state.closed = true
            state.idle = []
            return state.all
        }
        for reader in readers { try? reader.close() }
    }
}
