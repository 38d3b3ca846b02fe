import Foundation
import Synchronization

/// Row heights per (item identifier, content version, width), computed off the UI actor.
///
/// The adapter asks it for a section's heights on the UI path (`heights(for:measuredBy:)`):
/// a hit returns the cached heights; a miss measures right there and stores them. To keep
/// layout off the UI path, `prepare(_:)` measures every missing entry beforehand on
/// background tasks, in parallel. A new content version or width is a different key, so an
/// updated item or a resized view never reads stale heights; the cache keeps one version per
/// identifier (the latest stored) and the `widthsPerItem` most recent widths.
///
/// `statistics` counts hits and misses of UI-path look-ups and the entries prepared.
public final class ListLayoutCache: Sendable {
    /// Which heights: an item's identity, its content version, and the width.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// The item's identity.
        public var identifier: AnyListItem.Identifier
        /// The item's content version (a new one whenever its content changes).
        public var version: Int
        /// The width in columns.
        public var width: Int

        /// Makes a key.
        public init(identifier: AnyListItem.Identifier, version: Int, width: Int) {
            self.identifier = identifier
            self.version = version
            self.width = width
        }

        /// A one-line summary, for logs and test failures.
        public var description: String { "\(identifier)@v\(version)/w\(width)" }
    }

    /// Something to measure ahead of time: an item version and how to measure its rows.
    public struct Request: Sendable {
        /// The item's identity.
        public var identifier: AnyListItem.Identifier
        /// The item's content version.
        public var version: Int
        /// The height of every row for a width; pure, called on a background task.
        public var measure: @Sendable (Int) -> [Int]

        /// Makes a request.
        public init(
            identifier: AnyListItem.Identifier, version: Int, measure: @escaping @Sendable (Int) -> [Int]
        ) {
            self.identifier = identifier
            self.version = version
            self.measure = measure
        }
    }

    /// Counters of the cache's use.
    public struct Statistics: Sendable, Equatable, CustomStringConvertible {
        /// UI-path look-ups answered from the cache.
        public var hits = 0
        /// UI-path look-ups that had to measure (on the UI path).
        public var misses = 0
        /// Entries measured ahead by `prepare`, off the caller's actor.
        public var prepared = 0
        /// Entries held now (one per identifier and width).
        public var entries = 0

        /// A one-line summary, for logs and test failures.
        public var description: String {
            "hits \(hits), misses \(misses), prepared \(prepared), entries \(entries)"
        }
    }

    struct Entry {
        var version: Int
        /// Most recent last.
        var heightsByWidth: [(width: Int, heights: [Int])]
    }

    struct State {
        var entries: [AnyListItem.Identifier: Entry] = [:]
        var statistics = Statistics()

        func heights(for key: Key) -> [Int]? {
            guard let entry = entries[key.identifier], entry.version == key.version else { return nil }
            return entry.heightsByWidth.last { $0.width == key.width }?.heights
        }

        mutating func store(_ heights: [Int], for key: Key, widthsPerItem: Int) {
            var entry = entries[key.identifier] ?? Entry(version: key.version, heightsByWidth: [])
            // Another version replaces the one held: versions name content and are not ordered (a
            // model's own are hashes). A measurement of an earlier state that lands late costs
            // one more measurement of the current one, never wrong heights: look-ups match the
            // version exactly.
            statistics.entries -= entry.heightsByWidth.count
            if entry.version != key.version { entry = Entry(version: key.version, heightsByWidth: []) }
            entry.heightsByWidth.removeAll { $0.width == key.width }
            entry.heightsByWidth.append((key.width, heights))
            if entry.heightsByWidth.count > widthsPerItem {
                entry.heightsByWidth.removeFirst(entry.heightsByWidth.count - widthsPerItem)
            }
            statistics.entries += entry.heightsByWidth.count
            entries[key.identifier] = entry
        }
    }

    /// How many widths are kept per item (a resize back and forth stays cached).
    public let widthsPerItem: Int
    let state = Mutex(State())

    /// Makes an empty cache keeping `widthsPerItem` widths per item.
    public init(widthsPerItem: Int = 2) {
        self.widthsPerItem = Swift.max(1, widthsPerItem)
    }

    /// The cache's counters.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The cached heights for `key`, or nil; counted as a hit or a miss.
    public func heights(for key: Key) -> [Int]? {
        state.withLock { state in
            let heights = state.heights(for: key)
            if heights == nil { state.statistics.misses += 1 } else { state.statistics.hits += 1 }
            return heights
        }
    }

    /// The content version the cache holds heights of `identifier` for at `width`, or nil when it
    /// holds none there. Not counted in `statistics`: it tells a caller what a list would measure
    /// (a version other than the item's own is measured again), it reads no heights.
    public func version(of identifier: AnyListItem.Identifier, width: Int) -> Int? {
        state.withLock { state in
            guard let entry = state.entries[identifier],
                entry.heightsByWidth.contains(where: { $0.width == width })
            else { return nil }
            return entry.version
        }
    }

    /// The heights for `key`: cached, or else measured now with `measure` (outside the lock)
    /// and stored.
    public func heights(for key: Key, measuredBy measure: () -> [Int]) -> [Int] {
        if let heights = heights(for: key) { return heights }
        let heights = measure()
        store(heights, for: key)
        return heights
    }

    /// Stores `heights` for `key`, replacing the version of the item it held (versions are not ordered).
    public func store(_ heights: [Int], for key: Key) {
        let widthsPerItem = widthsPerItem
        state.withLock { $0.store(heights, for: key, widthsPerItem: widthsPerItem) }
    }

    /// Measures every request not cached for `width`, on background tasks (in parallel
    /// chunks), and stores the results. Returns when all are stored.
    ///
    /// Complexity: O(rows of the missing requests), spread over the machine's cores.
    @concurrent
    public func prepare(_ requests: [Request], width: Int) async {
        let missing = state.withLock { state in
            requests.filter {
                state.heights(for: Key(identifier: $0.identifier, version: $0.version, width: width)) == nil
            }
        }
        guard !missing.isEmpty else { return }
        let chunkCount = Swift.min(
            missing.count, Swift.max(1, ProcessInfo.processInfo.activeProcessorCount * 2))
        let chunkSize = (missing.count + chunkCount - 1) / chunkCount
        let measured = await withTaskGroup(of: [(Key, [Int])].self) { group in
            for start in stride(from: 0, to: missing.count, by: chunkSize) {
                let chunk = missing[start..<Swift.min(start + chunkSize, missing.count)]
                group.addTask {
                    chunk.map { request in
                        (
                            Key(identifier: request.identifier, version: request.version, width: width),
                            request.measure(width)
                        )
                    }
                }
            }
            var all: [(Key, [Int])] = []
            all.reserveCapacity(missing.count)
            for await part in group { all += part }
            return all
        }
        let widthsPerItem = widthsPerItem
        state.withLock { state in
            for (key, heights) in measured {
                state.store(heights, for: key, widthsPerItem: widthsPerItem)
            }
            state.statistics.prepared += measured.count
        }
    }

    /// Forgets the heights of these items (for example, items removed from the list).
    public func removeHeights(for identifiers: some Sequence<AnyListItem.Identifier>) {
        state.withLock { state in
            for identifier in identifiers {
                if let entry = state.entries.removeValue(forKey: identifier) {
                    state.statistics.entries -= entry.heightsByWidth.count
                }
            }
        }
    }

    /// Forgets every height (the counters stay).
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.statistics.entries = 0
        }
    }
}
