import Composition
import ServerAPI
import Storage
import Synchronization
import Wire

/// The `feed.cache` service: the home feed's `FeedCache` in the app database, fetching through
/// `network.client` and feeding its media store. The cache belongs to the signed-in viewer; one
/// written for another viewer is cleared at start.
///
/// Reads: `NetworkClockKey`. Depends on: `storage.database`, `network.client`.
public final class FeedCacheService: Service {
    /// The service's id, `feed.cache`.
    public static let id = "feed.cache"

    private let state = Mutex<FeedCache?>(nil)

    /// Entries per page fetched by `refresh` and `loadMore`.
    public let pageSize: Int

    /// The page size when none is given.
    public static let defaultPageSize = 20

    /// Makes the service.
    public init(pageSize: Int = defaultPageSize) { self.pageSize = pageSize }

    /// Makes the cache.
    public func start(_ context: ServiceContext) async throws {
        let database = try context.service(.appDatabase).database
        let network = try context.service(.networkClient)
        let pageSize = pageSize
        let cache = FeedCache(
            database: database, mediaStore: network.mediaStore, clock: context.values[NetworkClockKey.self],
            fetch: { cursor throws(TransportError) in
                try await network.client.homeFeed(cursor: cursor, limit: pageSize)
            },
            fetchIfChanged: { etag throws(TransportError) in
                try await network.client.homeFeed(limit: pageSize, ifNoneMatch: etag)
            })
        // Before anyone is signed in there is no viewer to compare with: the cache stays as it is
        // until a sign-in names one (`prepare` then clears it only if the viewer changed). A
        // launch that could not sign in never drops the cached feed.
        let viewer = network.viewerIdentity
        if !viewer.isEmpty { try cache.prepare(viewer: viewer) }
        state.withLock { $0 = cache }
    }

    /// Drops the cache object (the database is closed by `storage.database`).
    public func stop() async { state.withLock { $0 = nil } }

    /// The cache.
    ///
    /// - Throws: `FeedCacheError` before start or after stop.
    public var cache: FeedCache {
        get throws(FeedCacheError) {
            guard let cache = state.withLock({ $0 }) else {
                throw FeedCacheError("service 'feed.cache' is not running; depend on it so it starts first")
            }
            return cache
        }
    }
}

extension ServiceKey where S == FeedCacheService {
    /// The feed cache service, `feed.cache`.
    public static var feedCache: Self { .init(FeedCacheService.id) }
}
