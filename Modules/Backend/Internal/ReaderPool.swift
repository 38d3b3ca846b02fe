import Storage
import Synchronization

/// Read-only connections to the backend's file (`PRAGMA query_only`), beside the one connection
/// that writes, so requests that only read (the feed, a thread, a profile) run side by side
/// instead of queueing on the writer's lock. WAL lets them: each read is one deferred
/// transaction, a snapshot of the newest committed state when it starts, so a read that follows
/// a write's response sees it, and the statements of one response agree with each other.
///
/// A read takes an idle connection when there is one, else waits its turn on one of them.
final class ReaderPool: Sendable {
    private let connections: [Database]
    private let idle: Mutex<[Database]>
    private let next = Atomic<Int>(0)

    /// Opens `count` connections to the file at `path`.
    init(path: String, count: Int) throws(StorageError) {
        var connections: [Database] = []
        for _ in 0..<count {
            let reader = try Database(path: path, options: Database.Options(synchronous: .normal))
            try reader.execute("PRAGMA query_only = 1")
            connections.append(reader)
        }
        self.connections = connections
        idle = Mutex(connections)
    }

    /// Runs `body` in one read transaction on a reader, or on `fallback` when the pool has none.
    func read<T>(or fallback: Database, _ body: (borrowing Connection) throws -> T) throws -> T {
        guard !connections.isEmpty else { return try fallback.withConnection(body) }
        if let reader = idle.withLock({ $0.popLast() }) {
            defer { idle.withLock { $0.append(reader) } }
            return try reader.transaction(.deferred, body)
        }
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return try connections[index % connections.count].transaction(.deferred, body)
    }

    /// Closes every reader; later reads throw `closed`.
    func close() {
        for connection in connections { try? connection.close() }
    }
}
