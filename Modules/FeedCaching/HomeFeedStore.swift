import MediaModel

/// What a screen asks of the home feed's cache: the cached first screen at once, more entries as
/// it scrolls, a refresh and the next page from the server, and the row heights it measured.
///
/// `FeedCache` is the app's one implementation; the feed screen holds this interface (through
/// `AppContext`), so it compiles against no database, and a screen test can give it a cache
/// over a stub transport, or a stub of its own.
///
/// ```swift
/// let screen = try cache.firstScreen(width: 80, rows: 24)   // no network call
/// let merge = try await cache.refresh()                      // then the server's newest
/// let more = try cache.entries(from: 0, count: merge.count)
/// ```
public protocol HomeFeedStore: FeedLayoutStore {
    /// The first screen of the cached feed at `width`, without any network call.
    func firstScreen(width: Int, rows: Int) throws -> FirstScreen
    /// How many entries are cached.
    var count: Int { get throws }
    /// `count` cached entries from `index`, newest first.
    func entries(from index: Int, count: Int) throws -> [CachedEntry]
    /// A media the cached feed shows (a post or a reply's parent), or nil.
    func media(_ id: MediaID) throws -> Media?
    /// The stored heights of every cached entry at `width`.
    func heights(width: Int) throws -> HeightTable
    /// Stores the heights a screen measured at `width`.
    func storeHeights(_ heights: [EntryHeights], width: Int) throws
    /// Makes the cache belong to `viewer`, clearing one written for another.
    func prepare(viewer: String) throws
    /// Whether the cached entries miss a change the server has all the way down: a screen
    /// showing the cache refreshes when it appears while this is true.
    var isBehindTheServer: Bool { get throws }
    /// Fetches the newest page (and more, up to `maximumPages`, to fill a gap or reconcile) and
    /// merges it.
    @concurrent func refresh(maximumPages: Int) async throws -> FeedMerge
    /// Fetches the page after `cursor` and appends it.
    @concurrent func loadMore(cursor: String) async throws -> FeedMerge
}

/// What the stored row heights were measured under: a key of how the app draws its entries,
/// and what that key was derived from, so a launch of the same build reads it back (see
/// `FeedCache.adoptLayout(_:source:)`). Part of every ``HomeFeedStore``.
public protocol FeedLayoutStore: AnyObject, Sendable {
    /// Makes stored heights belong to `layout` (derived from `source`), dropping those
    /// measured under another; true when any were dropped.
    func adoptLayout(_ layout: Int64, source: Int64?) throws -> Bool
    /// The layout key last adopted with `source`, or nil.
    func layout(measuredUnder source: Int64) throws -> Int64?
}

extension HomeFeedStore {
    /// `refresh(maximumPages: 10)`.
    @concurrent @discardableResult
    public func refresh() async throws -> FeedMerge { try await refresh(maximumPages: 10) }
}

extension FeedCache: HomeFeedStore {}
