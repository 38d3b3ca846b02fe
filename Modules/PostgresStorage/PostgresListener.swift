import CLibPQ
import Foundation
import Storage
import Synchronization

/// PostgreSQL's LISTEN on a connection of its own, delivering each NOTIFY payload of one channel
/// to a closure, from a thread that waits on the connection's socket.
///
/// A dropped connection is made anew (every half second until the server answers) and LISTENs
/// again; notifications sent meanwhile are lost, so a listener's user must not rely on them
/// alone (the backend's long polls re-read every second as well). `stop()` ends the thread
/// and closes the connection.
///
/// `@unchecked Sendable` invariant: the connection is used only by the listener's thread; the
/// thread and `stop()` share only `stopped`, an atomic.
final class PostgresListener: SQLListener, @unchecked Sendable {
    private let url: String
    private let channel: String
    private let deliver: @Sendable (String) -> Void
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// The connection `init` made, handed to the thread (which alone uses it from then on).
    private let initialConnection: OpaquePointer

    /// Connects, LISTENs on `channel` and starts the thread.
    init(url: String, channel: String, deliver: @escaping @Sendable (String) -> Void) throws(StorageError) {
        self.url = url
        self.channel = channel
        self.deliver = deliver
        initialConnection = try Self.connect(url: url, channel: channel)
        let thread = Thread { [self] in
            run(initialConnection)
            finished.signal()
        }
        thread.name = "postgres-listen"
        thread.start()
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }

    deinit { stop() }

    /// A new connection that listens on the channel.
    private static func connect(url: String, channel: String) throws(StorageError) -> OpaquePointer {
        let connection = PQconnectdb(url)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { PostgresEngine.trimmed(PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            throw StorageError(
                code: .cannotOpen, engineCode: "PostgreSQL",
                message:
                    "cannot connect to PostgreSQL at \(PostgresEngine.redacted(url)) to listen: \(reason)",
                path: PostgresEngine.redacted(url))
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        let quoted = "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let result = PQexec(connection, "LISTEN \(quoted)")
        defer { PQclear(result) }
        guard result.map(PQresultStatus) == PGRES_COMMAND_OK else {
            let reason = PostgresEngine.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw StorageError(
                code: .error, engineCode: "PostgreSQL", message: "cannot listen on '\(channel)': \(reason)",
                path: PostgresEngine.redacted(url))
        }
        return connection
    }

    /// Waits on the socket (a quarter second at a time, to notice `stop()`), delivering every
    /// notification; makes the connection anew when it drops.
    private func run(_ first: OpaquePointer) {
        var connection: OpaquePointer? = first
        while !stopped.load(ordering: .relaxed) {
            guard let open = connection, PQstatus(open) == CONNECTION_OK else {
                if let dead = connection { PQfinish(dead) }
                connection = try? Self.connect(url: url, channel: channel)
                if connection == nil { Thread.sleep(forTimeInterval: 0.5) }
                continue
            }
            var descriptor = pollfd(fd: PQsocket(open), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 250) > 0 else { continue }
            guard PQconsumeInput(open) == 1 else {
                PQfinish(open)
                connection = nil
                continue
            }
            while let notification = PQnotifies(open) {
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                deliver(payload)
            }
        }
        if let connection { PQfinish(connection) }
    }
}
