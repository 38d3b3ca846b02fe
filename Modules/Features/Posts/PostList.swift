import ListEngine
import MediaModel
import TerminalUI

/// A scrolling list of posts: a terminal list view driven by a list adapter, one section per
/// post. Feed, thread and profile screens each own one.
///
/// Heights are measured on background tasks (`performUpdatesWithPreparedLayout`) inside
/// tracked work, or come from heights stored with the feed cache; the UI actor only draws.
@MainActor
package final class PostList: ListAdapterDataSource {
    /// The view.
    package let view: TerminalListView
    /// The adapter driving it.
    package let adapter: ListAdapter<TerminalListView>
    private let context: AppContext
    /// The posts shown, in order.
    package private(set) var items: [PostItem] = []
    /// Updates handed to the adapter and not yet shown.
    private var updatesInFlight = 0
    /// The last update `show(_:shown:)` started (its layout off the UI actor, then applied).
    private var lastUpdate: Task<Void, Never>?
    /// Whether to select the first post once the updates in flight are shown.
    private var selectFirstWhenShown = false
    /// Runs when a post is opened (enter).
    package var onActivate: (@MainActor (PostItem) -> Void)?
    /// The update plan the last `show(_:shown:)` handed the view (for tests and the bench).
    package private(set) var lastPlan: ListUpdatePlan?
    /// Which item of each post's carousel is shown, by item id: view state of this list, kept
    /// across rebuilds of its items while the screen lives (a new screen starts at the first).
    private var carouselPositions: [String: Int] = [:]

    /// Makes an empty list of the given size.
    package init(context: AppContext, width: Int, height: Int) {
        self.context = context
        view = TerminalListView(width: width, height: height)
        adapter = ListAdapter(view: view, workingRangeSize: 3, layoutCache: ListLayoutCache(widthsPerItem: 3))
        adapter.dataSource = self
        context.observePhotoArt(self)
    }

    // MARK: ListAdapterDataSource

    package func listItems() -> [AnyListItem] { items.map(AnyListItem.init) }

    package func sectionController(for item: AnyListItem) -> (any ListSectionController<StyledRow>)? {
        guard let post = item.model(as: PostItem.self) else { return nil }
        if !post.media.kind.isKnown {
            return UnsupportedPostController(presentation: context.presentation)
        }
        return PostController(
            presentation: context.presentation,
            onActivate: { [weak self] item in self?.onActivate?(item) },
            onNear: { [weak self] item in self?.loadPhotoArt(of: [item]) })
    }

    // MARK: Updating

    /// Shows `items`: heights not known yet are measured off the UI actor first (tracked work),
    /// then the view gets one update plan; `shown` runs after that.
    /// Returns once the items last given to `show(_:shown:)` are laid out and on screen.
    package func itemsShown() async {
        await lastUpdate?.value
    }

    package func show(_ items: [PostItem], shown: (@MainActor () -> Void)? = nil) {
        self.items = items.map { item in
            var item = item
            item.carouselPosition = carouselPositions[item.id] ?? 0
            return item
        }
        updatesInFlight += 1
        lastUpdate = context.tracker.run { [weak self] in
            guard let self else { return }
            self.lastPlan = await self.adapter.performUpdatesWithPreparedLayout()
            self.updatesInFlight -= 1
            self.loadPhotoArt(
                of: self.adapter.items[self.view.visibleSections.clamped(to: self.adapter.items.indices)]
                    .compactMap { $0.model(as: PostItem.self) })
            if self.view.selection == nil || (self.selectFirstWhenShown && self.updatesInFlight == 0),
                !self.items.isEmpty
            {
                self.selectFirstWhenShown = false
                self.view.select(ListRowPath(section: 0, row: 0))
            }
            shown?()
            self.context.navigator?.setNeedsDisplay()
        }
    }

    /// The art of photo `photoID` arrived: the posts shown with it are drawn again at the next
    /// draw (their heights are unchanged: art and placeholder take the same cells). Returns
    /// whether any post shows it.
    @discardableResult
    package func photoArtDidArrive(_ photoID: String) -> Bool {
        var paths: [ListRowPath] = []
        for (section, item) in adapter.items.enumerated() {
            guard let post = item.model(as: PostItem.self), post.showsPhoto(photoID) else { continue }
            for row in 0..<adapter.rowCount(inSection: section) {
                paths.append(ListRowPath(section: section, row: row))
            }
        }
        view.reloadRows(paths)
        return !paths.isEmpty
    }

    /// Starts loading the art of the stored photos `items` show at the list's width, off the UI
    /// actor (tracked work, so a headless `wait` includes the loads): drawing them off screen
    /// asks the art store for exactly the keys the screen will, and the store loads what it lacks.
    private func loadPhotoArt(of items: [PostItem]) {
        let presentation = context.presentation
        guard presentation.photoArt != nil else { return }
        let posts = items.filter { $0.hasStoredPhoto }
        guard !posts.isEmpty else { return }
        let width = view.contentWidth
        let tracker = context.tracker
        tracker.begin()
        Task.detached {
            for post in posts { _ = PostRenderer.lines(for: post, width: width, presentation: presentation) }
            tracker.end()
        }
    }

    /// Puts heights measured earlier (stored with the feed cache) into the layout cache, so
    /// those posts are never measured again.
    package func seedHeights(_ heights: [(item: PostItem, rows: [Int])]) {
        let width = view.width
        for (item, rows) in heights {
            adapter.layoutCache.store(
                rows,
                for: ListLayoutCache.Key(
                    identifier: AnyListItem(item).diffIdentifier, version: item.contentVersion, width: width))
        }
    }

    /// The content version the layout cache holds heights of `item` for at the current width
    /// (the item's own ``PostItem/contentVersion`` once it is measured as it is now), or nil when
    /// it holds none. Not counted as a look-up.
    package func cachedVersion(of item: PostItem) -> Int? {
        adapter.layoutCache.version(of: AnyListItem(item).diffIdentifier, width: view.width)
    }

    /// The heights the layout cache holds for `items` at the current width.
    package func cachedHeights(of items: [PostItem]) -> [(item: PostItem, rows: [Int])] {
        let width = view.width
        return items.compactMap { item in
            adapter.layoutCache.heights(
                for: ListLayoutCache.Key(
                    identifier: AnyListItem(item).diffIdentifier, version: item.contentVersion, width: width)
            ).map { (item, $0) }
        }
    }

    // MARK: Selection and scrolling

    /// The selected post.
    package var selectedItem: PostItem? {
        guard let section = view.selection?.section, items.indices.contains(section) else { return nil }
        return items[section]
    }

    /// The position of the selected post.
    package var selectedIndex: Int? { view.selection?.section }

    /// Whether the first post is selected (or nothing is).
    package var isAtTop: Bool { (view.selection?.section ?? 0) == 0 }

    /// Selects the post with `id`, if shown.
    package func select(id: String) {
        guard let section = items.firstIndex(where: { $0.id == id }) else { return }
        view.select(ListRowPath(section: section, row: 0))
    }

    /// Selects the first post, scrolling to the top; when an update is still being laid out,
    /// again once it is shown (the newest post may be in it).
    package func selectFirst() {
        if updatesInFlight > 0 { selectFirstWhenShown = true }
        guard view.numberOfSections > 0 else { return }
        view.select(ListRowPath(section: 0, row: 0))
    }

    /// Selects the last post shown, scrolling to the end.
    package func selectLast() {
        guard view.numberOfSections > 0 else { return }
        view.select(ListRowPath(section: view.numberOfSections - 1, row: 0))
    }

    /// Moves the selection down one post.
    @discardableResult
    package func selectNext() -> Bool { view.selectNext() }

    /// Moves the selection up one post.
    @discardableResult
    package func selectPrevious() -> Bool { view.selectPrevious() }

    /// What `turnCarousel(by:)` did.
    package enum CarouselTurn: Sendable, Equatable {
        /// It shows the item at `position` (from 0) of `count`.
        case turned(position: Int, count: Int)
        /// It stayed: the first (going back) or last (going on) of `count` is shown already.
        case atEnd(position: Int, count: Int)
        /// The selected post has no carousel.
        case noCarousel
        /// No post is selected.
        case noSelection
    }

    /// Shows the previous (`step` -1) or next (`step` 1) item of the selected post's carousel,
    /// stopping at either end: one content change of that post, through the adapter's update
    /// (its height is unchanged, so nothing else on screen moves).
    @discardableResult
    package func turnCarousel(by step: Int) -> CarouselTurn {
        guard let index = selectedIndex, items.indices.contains(index) else { return .noSelection }
        let item = items[index]
        guard let count = item.carouselCount else { return .noCarousel }
        let position = item.carouselPosition + step
        guard (0..<count).contains(position) else {
            return .atEnd(position: item.carouselPosition, count: count)
        }
        carouselPositions[item.id] = position
        show(items)
        return .turned(position: position, count: count)
    }

    /// Shows the item at `position` of the carousel of the post `id` (the item a full-screen
    /// viewer paged to), as `turnCarousel(by:)` would; a position outside the carousel is kept
    /// within it when drawn.
    package func showCarouselItem(at position: Int, ofItem id: String) {
        guard let item = items.first(where: { $0.id == id }), item.carouselCount != nil,
            item.carouselPosition != position
        else { return }
        carouselPositions[id] = position
        show(items)
    }

    /// Opens the selected post.
    @discardableResult
    package func activate() -> Bool { view.activateSelection() }

    /// Resizes the list; heights for the new width are measured off the UI actor (tracked), then
    /// the view lays out again keeping its anchor.
    package func resize(width: Int, height: Int) {
        view.resize(width: width, height: height)
        context.tracker.run { [weak self] in
            guard let self else { return }
            await self.adapter.prepareLayout()
            self.view.relayout(from: self.adapter)
            self.context.navigator?.setNeedsDisplay()
        }
    }

    /// Draws the visible posts.
    @discardableResult
    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> ListDrawStatistics {
        view.draw(into: &buffer, in: rect)
    }
}
