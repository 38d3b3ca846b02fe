import Synchronization

extension MediaStore {
    /// A registration of a change handler; the handler stops being called when this is
    /// cancelled or released.
    public final class Observation: Sendable {
        private let store: MediaStore
        private let token: Int
        private let cancelled = Atomic<Bool>(false)

        init(store: MediaStore, token: Int) {
            self.store = store
            self.token = token
        }

        /// Stops the handler from being called again. Calling it twice is harmless.
        public func cancel() {
            if !cancelled.exchange(true, ordering: .relaxed) { store.removeObserver(token) }
        }

        deinit { cancel() }
    }
}
