import Synchronization

/// The server's statistics, written by the event loop and read from anywhere.
final class Counters: Sendable {
    private let values = Mutex(HTTPServer.Statistics())

    /// Changes the statistics.
    func update(_ change: (inout HTTPServer.Statistics) -> Void) { values.withLock { change(&$0) } }

    /// A connection was accepted, and `opened` unless it was refused at once. One update, so that
    /// a reader never sees it accepted but not yet open.
    func accepted(opened: Bool) {
        values.withLock {
            $0.connectionsAccepted += 1
            guard opened else { return }
            $0.connectionsOpen += 1
            $0.peakConnectionsOpen = max($0.peakConnectionsOpen, $0.connectionsOpen)
        }
    }

    var snapshot: HTTPServer.Statistics { values.withLock { $0 } }
}
