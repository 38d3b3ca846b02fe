import Synchronization

/// A registration of a handler with something that reports changes (the mutation manager, the
/// server's reachability); the handler stops being called when this is cancelled or released.
///
/// ```swift
/// let observation = manager.observe { change in print(change) }
/// observation.cancel()  // or let it go
/// ```
public final class ObservationToken: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    /// An observation that runs `onCancel` once, when cancelled or released.
    public init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

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
