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
    /// Whether to select the first post once the updates in flight are shown.
    private var selectFirstWhenShown = false
    /// Runs when a post is opened (enter).
    package var onActivate: (@MainActor (PostItem) -> Void)?

    /// Makes an empty list of the given size.
    package init(context: AppContext, width: Int, height: Int) {
        self.context = context
        view = TerminalListView(width: width, height: height)
        adapter = ListAdapter(view: view, workingRangeSize: 3, layoutCache: ListLayoutCache(widthsPerItem: 3))
        adapter.dataSource = self
    }

    // MARK: ListAdapterDataSource

    package func listItems() -> [AnyListItem] { items.map(AnyListItem.init) }

    package func sectionController(for item: AnyListItem) -> (any ListSectionController<StyledRow>)? {
        guard let post = item.model(as: PostItem.self) else { return nil }
        if !post.media.kind.isKnown {
            return UnsupportedPostController(presentation: context.presentation)
        }
        return PostController(presentation: context.presentation) { [weak self] item in
            self?.onActivate?(item)
        }
    }

    // MARK: Updating

    /// Shows `items`: heights not known yet are measured off the UI actor first (tracked work),
    /// then the view gets one update plan; `shown` runs after that.
    package func show(_ items: [PostItem], shown: (@MainActor () -> Void)? = nil) {
        self.items = items
        updatesInFlight += 1
        context.tracker.run { [weak self] in
            guard let self else { return }
            await self.adapter.performUpdatesWithPreparedLayout()
            self.updatesInFlight -= 1
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
