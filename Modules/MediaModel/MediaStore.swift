import Synchronization

/// The single source of truth for facts shared across surfaces: like counts, whether the
/// viewer liked a media, reply and repost counts, edited captions. Keyed by media id.
///
/// Every surface that shows a media reads its shared facts here, so a change shows on every
/// surface at once. Facts an entry carries for its own surface (`FeedEntry.seenReplyCount`)
/// never flow into the store.
///
/// Threading: all methods are synchronous and safe to call from any thread or task. State sits
/// behind one `Mutex`, held only for dictionary work. Change notifications are delivered after
/// the lock is released: observer callbacks run on the thread that made the change; each
/// `changes()` stream buffers every notification (unbounded) for its own consumer.
/// Notifications carry the ids that changed, not values: read the current facts on receipt,
/// so notifications of concurrent changes may arrive in either order without harm. Do not call
/// back into the store while a closure of yours runs inside it (there is none that does today).
///
/// ```swift
/// let store = MediaStore()
/// let stream = store.changes()
/// store.apply(envelope.facts)            // from a page or a mutation's response
/// for await ids in stream { redraw(ids) }
/// ```
public final class MediaStore: Sendable {
    private struct State {
        var facts: [MediaID: MediaFacts] = [:]
        var streams: [Int: AsyncStream<Set<MediaID>>.Continuation] = [:]
        var observers: [Int: @Sendable (Set<MediaID>) -> Void] = [:]
        var nextToken = 0
    }

    private let state = Mutex(State())

    /// Makes an empty store.
    public init() {}

    /// The shared facts of a media, or `nil` if none were ever applied.
    ///
    /// Complexity: O(1).
    public func facts(for id: MediaID) -> MediaFacts? {
        state.withLock { $0.facts[id] }
    }

    /// The shared facts of several media; ids without facts are left out.
    ///
    /// Complexity: O(k) for k ids.
    public func facts(for ids: some Sequence<MediaID>) -> [MediaID: MediaFacts] {
        state.withLock { state in
            var result: [MediaID: MediaFacts] = [:]
            for id in ids { result[id] = state.facts[id] }
            return result
        }
    }

    /// How many media have facts in the store.
    public var count: Int { state.withLock { $0.facts.count } }

    /// Merges facts the server reported, then notifies subscribers of the ids whose facts changed.
    ///
    /// A fact replaces the stored one unless its `revision` is older; an equal revision replaces
    /// (the later report wins). Facts equal to the stored ones change nothing and notify nobody.
    ///
    /// - Returns: The ids whose facts changed.
    /// - Complexity: O(k) for k facts, plus the notifications.
    @discardableResult
    public func apply(_ serverFacts: [MediaID: MediaFacts]) -> Set<MediaID> {
        let (changed, streams, observers) = state.withLock { state in
            var changed: Set<MediaID> = []
            for (id, incoming) in serverFacts {
                if let current = state.facts[id], current.revision > incoming.revision || current == incoming
                {
                    continue
                }
                state.facts[id] = incoming
                changed.insert(id)
            }
            return changed.isEmpty
                ? (changed, [], []) : (changed, Array(state.streams.values), Array(state.observers.values))
        }
        notify(changed, streams: streams, observers: observers)
        return changed
    }

    /// Forgets the facts of media no surface shows any more, notifying subscribers of the ids
    /// that had facts.
    @discardableResult
    public func remove(_ ids: some Sequence<MediaID>) -> Set<MediaID> {
        let (removed, streams, observers) = state.withLock { state in
            var removed: Set<MediaID> = []
            for id in ids where state.facts.removeValue(forKey: id) != nil { removed.insert(id) }
            return removed.isEmpty
                ? (removed, [], []) : (removed, Array(state.streams.values), Array(state.observers.values))
        }
        notify(removed, streams: streams, observers: observers)
        return removed
    }

    /// A stream of the ids whose facts changed, one set per change, from now on.
    ///
    /// The stream buffers without bound for its consumer and ends when its consumer cancels or
    /// drops it.
    public func changes() -> AsyncStream<Set<MediaID>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<MediaID>.self)
        let token = state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.streams[token] = continuation
            return token
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: token) }
        }
        return stream
    }

    /// Calls `handler` with the ids whose facts changed, after each change, on the thread that
    /// made it, until the returned observation is cancelled or released.
    ///
    /// The handler must be quick and must not block; it may read the store.
    public func observe(_ handler: @escaping @Sendable (Set<MediaID>) -> Void) -> Observation {
        let token = state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.observers[token] = handler
            return token
        }
        return Observation(store: self, token: token)
    }

    func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    private func notify(
        _ ids: Set<MediaID>, streams: [AsyncStream<Set<MediaID>>.Continuation],
        observers: [@Sendable (Set<MediaID>) -> Void]
    ) {
        guard !ids.isEmpty else { return }
        for stream in streams { stream.yield(ids) }
        for observer in observers { observer(ids) }
    }
}
