import Synchronization

/// The single source of truth for facts shared across surfaces: like counts, whether the
/// viewer liked a media, reply and repost counts, edited captions. Keyed by media id.
///
/// Every surface that shows a media reads its shared facts here, so a change shows on every
/// surface at once. Facts an entry carries for its own surface (`FeedEntry.seenReplyCount`)
/// never flow into the store.
///
/// The store does not notify: a screen reads it whenever it merges what it shows, and the app
/// hears of changes in one place, the mutation manager's `observe` (a confirmation's facts land
/// here before the manager tells anyone), coalesced into one re-merge per frame.
///
/// Threading: all methods are synchronous and safe to call from any thread or task. State sits
/// behind one `Mutex`, held only for dictionary work.
///
/// ```swift
/// let store = MediaStore()
/// store.apply(envelope.facts)            // from a page or a mutation's response
/// let heart = store.facts(for: "m42")?.viewerLiked ?? false
/// ```
public final class MediaStore: Sendable {
    private struct State {
        var facts: [MediaID: MediaFacts] = [:]
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

    /// Merges facts the server reported.
    ///
    /// A fact replaces the stored one unless its `revision` is older; an equal revision replaces
    /// (the later report wins). Facts equal to the stored ones change nothing.
    ///
    /// - Returns: The ids whose facts changed.
    /// - Complexity: O(k) for k facts.
    @discardableResult
    public func apply(_ serverFacts: [MediaID: MediaFacts]) -> Set<MediaID> {
        state.withLock { state in
            var changed: Set<MediaID> = []
            for (id, incoming) in serverFacts {
                if let current = state.facts[id], current.revision > incoming.revision || current == incoming
                {
                    continue
                }
                state.facts[id] = incoming
                changed.insert(id)
            }
            return changed
        }
    }

    /// Forgets the facts of media no surface shows any more.
    ///
    /// - Returns: The ids that had facts.
    @discardableResult
    public func remove(_ ids: some Sequence<MediaID>) -> Set<MediaID> {
        state.withLock { state in
            var removed: Set<MediaID> = []
            for id in ids where state.facts.removeValue(forKey: id) != nil { removed.insert(id) }
            return removed
        }
    }
}
