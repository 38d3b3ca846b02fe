import Foundation
import Imaging
import MediaModel
import Synchronization
import TerminalUI
import Wire

/// Half-block art of stored photos, drawn from the real pixels: answers at once from memory,
/// and loads what it does not have off the UI actor.
///
/// ``art(for:)`` never waits: it returns the grid if memory holds it, else nil (the caller draws
/// the placeholder) and starts one load for the key, unless one is running or a failed one is
/// waiting out its backoff. A load reads the disk cache (``PhotoArtDiskCache``); failing that,
/// it fetches the smallest stored variant at least as wide as the grid, decodes it (with DCT
/// scaling, over ``background``), scales it to the grid in linear light, and writes it to disk.
/// Either way the grid goes into memory (least recently used dropped past
/// ``PhotoArtLimits/memoryBytes``) and the observer hears the photo's id on the main actor, so
/// the posts showing it draw again. Every load is counted by the work tracker, so a headless
/// `wait` includes it.
///
/// A failed load (offline, a server error, bytes that do not decode) leaves the placeholder and
/// is tried again at a draw after a backoff (5 s, doubling to 5 min), or at once by
/// ``retryFailed()`` when the network comes back.
///
/// The grid is pixels, not styled text: the same cache serves every color mode; the styling is
/// done when drawn.
package final class PhotoArtStore: Sendable, Hashable {
    /// Fetches the encoded bytes of the smallest stored variant of a photo at least `width` wide.
    package typealias Fetch = @Sendable (_ photoID: String, _ width: Int) async throws -> Data

    private struct Cached {
        var grid: RGBImage
        var lastUse: UInt64
    }

    private struct Failure {
        var attempts: Int
        var retryAt: Date
    }

    private struct State {
        var memory: [PhotoArtKey: Cached] = [:]
        var memoryBytes = 0
        var tick: UInt64 = 0
        var loading: Set<PhotoArtKey> = []
        var failed: [PhotoArtKey: Failure] = [:]
        var observer: (@MainActor @Sendable (String) -> Void)?
        var counts = Counts()
    }

    /// What the store has done, for tests and the bench.
    package struct Counts: Hashable, Sendable {
        /// Answers from memory.
        package var memoryHits = 0
        /// Answers of nil (a placeholder drawn).
        package var misses = 0
        /// Loads started.
        package var loadsStarted = 0
        /// Loads answered from the disk cache.
        package var diskHits = 0
        /// Variants fetched and decoded.
        package var fetched = 0
        /// Loads that failed.
        package var failures = 0
        /// Variants decoded on the main thread (the UI's): zero, since loads run on the
        /// concurrent pool; counted so the bench can show it.
        package var decodesOnMainThread = 0
    }

    /// The limits.
    package let limits: PhotoArtLimits
    /// The disk cache, or nil to keep art in memory only.
    package let disk: PhotoArtDiskCache?
    /// The color transparent pixels of a PNG are composited over.
    package let background: PixelImage.Color
    private let fetch: Fetch
    private let clock: any WallClock
    private let tracker: WorkTracker
    private let state = Mutex(State())

    /// Makes a store.
    ///
    /// - Parameters:
    ///   - directory: the folder of the disk cache (`<data-dir>/photo-art`), or nil for none.
    ///   - limits: the memory and disk caps and the retry backoff.
    ///   - background: what a PNG's transparency is drawn over (the theme's background).
    ///   - clock: the clock the backoff is measured on.
    ///   - tracker: counts each load as outstanding work.
    ///   - fetch: fetches a variant's bytes (`APIClient.photo(_:width:)`).
    package init(
        directory: String?, limits: PhotoArtLimits = .standard,
        background: PixelImage.Color = PhotoArtStore.defaultBackground,
        clock: any WallClock, tracker: WorkTracker, fetch: @escaping Fetch
    ) {
        self.limits = limits
        self.disk = directory.map {
            PhotoArtDiskCache(directory: $0, capacity: limits.diskBytes, background: background)
        }
        self.background = background
        self.clock = clock
        self.tracker = tracker
        self.fetch = fetch
    }

    /// The background transparent pixels are drawn over when none is given: black (the app passes
    /// its theme's `background`).
    package static let defaultBackground = PixelImage.Color(red: 0, green: 0, blue: 0)

    /// The folder of the disk cache in a data directory.
    package static func directory(inDataDirectory dataDirectory: String) -> String {
        dataDirectory + "/photo-art"
    }

    /// Who hears, on the main actor, the id of each photo whose art has just arrived.
    package func setObserver(_ observer: (@MainActor @Sendable (String) -> Void)?) {
        state.withLock { $0.observer = observer }
    }

    /// The art for `key` if memory holds it (marked as just used); otherwise nil, and a load is
    /// started unless one is running or a failed one is still waiting out its backoff. Never
    /// waits. O(1); the load it may start runs on the concurrent pool.
    package func art(for key: PhotoArtKey) -> RGBImage? {
        let now = clock.now
        let (grid, start) = state.withLock { state -> (RGBImage?, Bool) in
            state.tick += 1
            if let cached = state.memory[key] {
                state.memory[key]?.lastUse = state.tick
                state.counts.memoryHits += 1
                return (cached.grid, false)
            }
            state.counts.misses += 1
            if state.loading.contains(key) { return (nil, false) }
            if let failure = state.failed[key], failure.retryAt > now { return (nil, false) }
            state.loading.insert(key)
            state.counts.loadsStarted += 1
            return (nil, true)
        }
        if start { startLoad(key) }
        return grid
    }

    /// Tries every failed load again now (the network came back).
    package func retryFailed() {
        let keys = state.withLock { state -> [PhotoArtKey] in
            let keys = state.failed.keys.filter { !state.loading.contains($0) }.sorted {
                ($0.photoID, $0.pixelWidth) < ($1.photoID, $1.pixelWidth)
            }
            for key in keys { state.loading.insert(key) }
            state.counts.loadsStarted += keys.count
            return keys
        }
        for key in keys { startLoad(key) }
    }

    /// What the store has done so far.
    package var counts: Counts { state.withLock { $0.counts } }

    /// The bytes of grids in memory.
    package var memoryBytes: Int { state.withLock { $0.memoryBytes } }

    /// Whether memory holds the art for `key` (without marking it used or loading it).
    package func hasInMemory(_ key: PhotoArtKey) -> Bool { state.withLock { $0.memory[key] != nil } }

    // MARK: - Loading

    private func startLoad(_ key: PhotoArtKey) {
        tracker.begin()
        Task.detached { [self] in
            let grid = await load(key)
            let observer = state.withLock { state -> (@MainActor @Sendable (String) -> Void)? in
                state.loading.remove(key)
                guard let grid else { return nil }
                state.failed[key] = nil
                insert(grid, for: key, &state)
                return state.observer
            }
            if let observer { await observer(key.photoID) }
            tracker.end()
        }
    }

    /// The grid from disk, or fetched, decoded, scaled and written to disk; nil after a failure
    /// (recorded for the backoff).
    private func load(_ key: PhotoArtKey) async -> RGBImage? {
        if let grid = disk?.read(key) {
            state.withLock { $0.counts.diskHits += 1 }
            return grid
        }
        do {
            let bytes = try await fetch(key.photoID, key.pixelWidth)
            let grid = try Self.grid(fromEncoded: [UInt8](bytes), key: key, background: background)
            let onMain = Thread.isMainThread
            state.withLock { state in
                state.counts.fetched += 1
                if onMain { state.counts.decodesOnMainThread += 1 }
            }
            disk?.write(grid, for: key)
            return grid
        } catch {
            let now = clock.now
            let limits = limits
            state.withLock { state in
                state.counts.failures += 1
                let attempts = (state.failed[key]?.attempts ?? 0) + 1
                let delay = min(
                    limits.firstRetryDelay * (1 << min(attempts - 1, 20)), limits.maximumRetryDelay)
                state.failed[key] = Failure(
                    attempts: attempts, retryAt: now.addingTimeInterval(delay.seconds))
            }
            return nil
        }
    }

    /// Decodes `bytes` at the smallest DCT scale covering the grid, then scales it to exactly the
    /// grid in linear light.
    package static func grid(fromEncoded bytes: [UInt8], key: PhotoArtKey, background: PixelImage.Color)
        throws
        -> RGBImage
    {
        let decoder = ImageDecoder(background: background)
        let raster = try decoder.decode(bytes, minimumWidth: key.pixelWidth, minimumHeight: key.pixelHeight)
        let scaled = try raster.scaled(toWidth: key.pixelWidth, height: key.pixelHeight)
        return try RGBImage(width: scaled.width, height: scaled.height, rgb: scaled.rgb)
    }

    private func insert(_ grid: RGBImage, for key: PhotoArtKey, _ state: inout State) {
        state.tick += 1
        if let old = state.memory[key] { state.memoryBytes -= old.grid.rgb.count }
        state.memory[key] = Cached(grid: grid, lastUse: state.tick)
        state.memoryBytes += grid.rgb.count
        guard state.memoryBytes > limits.memoryBytes else { return }
        let oldestFirst = state.memory.sorted { $0.value.lastUse < $1.value.lastUse }
        for (oldKey, cached) in oldestFirst where state.memoryBytes > limits.memoryBytes && oldKey != key {
            state.memory[oldKey] = nil
            state.memoryBytes -= cached.grid.rgb.count
        }
    }

    // MARK: - Hashable (by identity: one store per running app)

    package static func == (lhs: PhotoArtStore, rhs: PhotoArtStore) -> Bool { lhs === rhs }

    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Duration {
    fileprivate var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
