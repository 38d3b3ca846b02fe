import Basics
import Synchronization

/// Whether the server can be reached, as the app's own requests found it: the last request that
/// got an answer (any status: a 404 is an answer) makes it reachable, and a request that failed
/// because the server could not be reached at all (`ErrorClass.offline`: no network, connection
/// refused, unknown host) makes it unreachable. Timeouts and cancellations say nothing either
/// way and change nothing.
///
/// `network.client` owns one and records every request its client sends through it (see
/// ``ReachabilityRecordingTransport``); the app's shell observes it to show an "offline" marker
/// from the first failed request until the next answered one (a refresh, a change sent, the
/// events poll).
///
/// ```swift
/// let observation = network.reachability.observe { status in
///     Task { @MainActor in shell.setNeedsDisplay() }
/// }
/// if network.reachability.status == .unreachable { drawOfflineMarker() }
/// ```
public final class ServerReachability: Sendable {
    /// What the app knows about reaching the server.
    public enum Status: String, Sendable, Hashable {
        /// No request has finished yet.
        case unknown
        /// The last request that settled it got an answer.
        case reachable
        /// The last request that settled it could not reach the server.
        case unreachable
    }

    private struct State {
        var status = Status.unknown
        var observers: [Int: @Sendable (Status) -> Void] = [:]
        var nextObserver = 0
    }

    private let state = Mutex(State())

    /// Makes a reachability that knows nothing yet.
    public init() {}

    /// What the app knows now.
    public var status: Status { state.withLock { $0.status } }

    /// Whether the last request that settled it could not reach the server.
    public var isUnreachable: Bool { status == .unreachable }

    /// Records what a request found; observers hear of it when the status changes.
    public func record(_ status: Status) {
        let observers = state.withLock { state -> [@Sendable (Status) -> Void] in
            guard state.status != status else { return [] }
            state.status = status
            return Array(state.observers.values)
        }
        for observer in observers { observer(status) }
    }

    /// Calls `handler` with the new status each time it changes (on the thread of the request
    /// that changed it), until the observation is cancelled or released.
    public func observe(_ handler: @escaping @Sendable (Status) -> Void) -> ObservationToken {
        let id = state.withLock { state -> Int in
            state.nextObserver += 1
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
        return ObservationToken { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }
}
