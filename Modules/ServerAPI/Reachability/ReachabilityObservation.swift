import Synchronization

/// A running observation of ``ServerReachability``; cancelled when released.
public final class ReachabilityObservation: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

    /// Stops the handler from being called again. Calling it twice is harmless.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
