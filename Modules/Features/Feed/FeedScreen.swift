import Composition
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// The home feed: cached entries at once, then fresh ones from the server; pull to refresh
/// (up at the top), infinite scroll (from the cache first, then the server), and the pending
/// and failed states of the viewer's own changes.
///
/// New posts that a refresh (or a launch) brings in above land selected when the person was
/// at the top; further down, the person keeps their place and a marker line ("3 new posts ↑")
/// tops the list until they reach the newest post (`g` jumps there).
///
/// What it shows is decided by sockets: `feedPolicy` (which kinds, page size, reply parents),
/// `postLayout` and `replyModel` (how posts look).
@MainActor
package final class FeedScreen: AppScreen {
    private let context: AppContext
    /// Where the feed is kept (the `feed.cache` service's cache).
    private let cache: any HomeFeedStore
    private let list: PostList
    private var entries: [CachedEntry] = []
    private var cachedCount = 0
    private var tailCursor: String?
    private var heights: HeightTable?
    private var started = false
    /// The content version of each entry the app does not show whose zero height this screen
    /// stored (or found stored), so a rebuild does not store it again.
    private var storedHidden: [FeedEntryID: Int64] = [:]
    /// The first screen's read from the cache, until it is shown.
    private var firstScreenRead: Task<Void, Never>?
    private var refreshing = false
    private var loadingMore = false
    private var reachedEnd = false
    private var message: String?
    /// Whether `message` is a refresh that failed because the server could not be reached.
    private var messageSaysUnreachable = false
    /// The post a first `d` asked to delete; the next key clears it (a second `d` deletes).
    private var askedToDelete: MediaID?
    /// The post that was first when newer ones arrived above it while the person read further
    /// down: everything above it is new to them. Nil once they reach the top.
    private var firstBeforeNewPosts: String?

    /// Makes the home feed, kept in `cache`, for a content area of `width` × `height`.
    package init(context: AppContext, cache: any HomeFeedStore, width: Int, height: Int) {
        self.context = context
        self.cache = cache
        list = PostList(context: context, width: width, height: height)
        list.onActivate = { [weak self] item in self?.open(item) }
    }

    package var title: String { "Home" }

    /// "refreshing…" while a refresh is out, else the last refresh's failure. While the server
    /// cannot be reached the title bar says so, and a refresh still out is not announced; a
    /// failure for that reason goes once the server answers again.
    package var status: String? {
        let unreachable = context.network.reachability.isUnreachable
        if refreshing && !unreachable { return "refreshing…" }
        if messageSaysUnreachable && !unreachable { return nil }
        return message
    }

    /// The posts shown now (for tests and the bench).
    package var items: [PostItem] { list.items }
    /// The list (for tests and the bench).
    package var postList: PostList { list }

    package func appear() {
        guard !started else {
            rebuild()
            // A follow confirmed or a name changed while the person was elsewhere: Home shows it
            // when they come back, without a pull to refresh (the check reads the database, off
            // the UI actor).
            let cache = self.cache
            context.tracker.run { [weak self] in
                let behind = await Task.detached { (try? cache.isBehindTheServer) == true }.value
                if behind { self?.refresh() }
            }
            return
        }
        started = true
        loadFirstScreen()
    }

    // MARK: Loading

    /// Shows the cached first screen (no network), then asks the server for fresh entries.
    private func loadFirstScreen() {
        let cache = self.cache
        let width = list.view.width
        let rows = list.view.viewportHeight
        let presentation = context.presentation
        firstScreenRead = context.tracker.run { [weak self] in
            let (first, adopted) = await Task.detached { () -> (FirstScreen?, Bool) in
                // Heights stored by a build that drew posts otherwise are dropped, not seeded;
                // when that cannot be checked, none are seeded (posts are measured again).
                // The key is read back when this build derived it before (`PostLayoutKey.adopt`).
                let adopted = PostLayoutKey.adopt(presentation, in: cache)
                return (try? cache.firstScreen(width: width, rows: rows), adopted)
            }.value
            guard let self else { return }
            if let first {
                self.entries = first.entries
                self.cachedCount = first.totalCount
                self.tailCursor = first.tailCursor
                self.heights = adopted ? first.heights : nil
                self.rebuild()
            }
            self.firstScreenRead = nil
            self.refresh()
        }
    }

    package func showsCachedContent() async {
        await firstScreenRead?.value
        await list.itemsShown()
    }

    /// Fetches the first page and merges it in; the list keeps its selection. A refresh the
    /// person asked for (`saying`) says what it found on the status line: "up to date", or how
    /// many new posts came in.
    package func refresh(saying: Bool = false) {
        guard !refreshing else { return }
        refreshing = true
        message = nil
        let startedAtTop = list.isAtTop
        let cache = self.cache
        let width = list.view.width
        let keep = max(entries.count, 1)
        context.tracker.run { [weak self] in
            let result: Result<([CachedEntry], Int, String?, HeightTable?, Int)?, any Error> =
                await Task.detached {
                    do {
                        let merge = try await cache.refresh()
                        // The server says the first page is as cached: nothing to read or merge.
                        if merge.unchanged { return .success(nil) }
                        let count = min(merge.count, keep + merge.inserted.count)
                        return .success(
                            (
                                try cache.entries(from: 0, count: count), merge.count, merge.tailCursor,
                                try? cache.heights(width: width), merge.inserted.count
                            ))
                    } catch {
                        return .failure(error)
                    }
                }.value
            guard let self else { return }
            self.refreshing = false
            switch result {
            case .success(nil):
                // No merge and no redraw: only the words, when the person asked.
                if saying {
                    self.message = "up to date"
                    self.context.navigator?.setNeedsDisplay()
                }
            case .success(let (entries, count, cursor, heights, inserted)?):
                let landsOnNewest = startedAtTop && self.list.isAtTop
                let first = self.list.items.first?.id
                self.entries = entries
                self.cachedCount = count
                self.tailCursor = cursor
                self.heights = heights ?? self.heights
                self.reachedEnd = entries.count >= count && cursor == nil
                self.rebuild()
                self.placeNewPosts(above: first, landingOnNewest: landsOnNewest)
                if saying {
                    self.message =
                        switch inserted {
                        case 0: "up to date"
                        case 1: "1 new post came in"
                        default: "\(inserted) new posts came in"
                        }
                    self.context.navigator?.setNeedsDisplay()
                }
            case .failure(let error):
                self.message = Self.describe(error, doing: "refresh")
                self.messageSaysUnreachable = (error as? TransportError)?.errorClass == .offline
                self.context.navigator?.setNeedsDisplay()
            }
        }
    }

    /// Loads the next entries: from the cache while it has more, else from the server.
    private func loadMore() {
        guard !loadingMore, !reachedEnd else { return }
        loadingMore = true
        let cache = self.cache
        let from = entries.count
        let cached = cachedCount
        let cursor = tailCursor
        let pageSize = context.registry.with(.feedPolicy) { max($0.pageSize, 1) }
        context.tracker.run { [weak self] in
            let result: Result<([CachedEntry], Int, String?, Bool), any Error> = await Task.detached {
                do {
                    if from < cached {
                        return .success(
                            (try cache.entries(from: from, count: pageSize), cached, cursor, false))
                    }
                    guard let cursor else { return .success(([], cached, nil, true)) }
                    let merge = try await cache.loadMore(cursor: cursor)
                    let more = try cache.entries(from: from, count: max(merge.count - from, 0))
                    return .success(
                        (more, merge.count, merge.tailCursor, more.isEmpty && merge.tailCursor == nil))
                } catch {
                    return .failure(error)
                }
            }.value
            guard let self else { return }
            self.loadingMore = false
            switch result {
            case .success(let (more, count, cursor, end)):
                let known = Set(self.entries.map(\.id))
                self.entries += more.filter { !known.contains($0.id) }
                self.cachedCount = count
                self.tailCursor = cursor
                // The end: the server said so, or every cached entry is shown and it has no more.
                self.reachedEnd = end || (self.entries.count >= count && cursor == nil)
                self.rebuild()
            case .failure(let error):
                self.message = Self.describe(error, doing: "load more")
                self.messageSaysUnreachable = (error as? TransportError)?.errorClass == .offline
                self.context.navigator?.setNeedsDisplay()
            }
        }
    }

    /// After a refresh: lands on the newest post when the person stayed at the top, else keeps
    /// their place and remembers `first` (the post that was first) so the marker counts the
    /// posts that came in above it.
    private func placeNewPosts(above first: String?, landingOnNewest: Bool) {
        if landingOnNewest {
            selectNewest()
        } else if firstBeforeNewPosts == nil, let first, list.items.first?.id != first {
            firstBeforeNewPosts = first
        }
    }

    /// How many posts came in above the place the person kept (0: none, or they reached the top).
    package var newPostsAbove: Int {
        guard let firstBeforeNewPosts else { return 0 }
        return list.items.firstIndex { $0.id == firstBeforeNewPosts } ?? 0
    }

    /// Selects the newest post (the first), which also clears the new-posts marker.
    private func selectNewest() {
        firstBeforeNewPosts = nil
        list.selectFirst()
    }

    package static func describe(_ error: any Error, doing action: String) -> String {
        if let transport = error as? TransportError {
            switch transport.errorClass {
            case .offline: return "offline: showing what was saved; could not \(action)"
            case .timeout: return "the server did not answer in time; could not \(action)"
            default: return "could not \(action): \(transport.errorClass)"
            }
        }
        return "could not \(action): \(error)"
    }

    // MARK: Items

    /// Rebuilds the posts from the cached entries merged with the viewer's pending changes (the
    /// optimistic layer), the shared facts and the feed policy.
    ///
    /// The heights stored with the feed cache for an entry's version are the ones last measured
    /// for it. They are seeded only into posts the list has not laid out yet (at launch, a page
    /// from the cache): a post the list holds under another version than its own has changed
    /// since (its reply count line came or went, say), so it is measured again and those heights
    /// are stored.
    func rebuild() {
        let policy = context.registry[.feedPolicy]
        let versions = Dictionary(
            entries.map { ($0.entry.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        rebuildCount += 1
        let merged = context.mutations.mergedHomeFeed(entries.map(\.entry), store: context.mediaStore)
        let table = heights?.width == list.view.width ? heights : nil
        var items: [PostItem] = []
        items.reserveCapacity(merged.count)
        var seeded: [(item: PostItem, rows: [Int])] = []
        var measured: [(item: PostItem, version: Int64)] = []
        var hidden: [EntryHeights] = []
        let showsReplies = policy.showsReplies
        for row in merged {
            let entry = row.entry
            let version = versions[entry.id]
            guard policy.shows(entry.media.kind) && (showsReplies || !entry.isReply) else {
                // An entry this app does not show takes no rows: stored so, the next launch's
                // first screen does not count it as a row of posts and stop short of filling.
                if let version, storedHidden[entry.id] != version {
                    storedHidden[entry.id] = version
                    if table?.rows(for: entry.id, version: version) != [] {
                        hidden.append(EntryHeights(entryID: entry.id, version: version, rows: []))
                    }
                }
                continue
            }
            let item = PostItem(
                id: entry.id.rawValue, row: row, age: context.age(of: entry.media.createdAt),
                contentVersion: version.map { Int(truncatingIfNeeded: $0) })
            items.append(item)
            // A post only this device knows is not in the cache: nothing to seed or store.
            guard let version else { continue }
            let stored = table?.rows(for: entry.id, version: version)
            let cached = list.cachedVersion(of: item)
            if let stored, cached == nil {
                seeded.append((item, stored))
            } else if stored == nil || cached != item.contentVersion {
                measured.append((item, version))
            }
        }
        list.seedHeights(seeded)
        store(hidden)
        let endNote = reachedEnd ? [StyledLine("✓ You're all caught up", style: context.style.secondary)] : []
        list.show(items) { [weak self] in
            self?.list.view.trailer = endNote
            self?.storeHeights(of: measured)
        }
        if revealsNewest { selectNewest() }
    }

    package func dataDidChange() {
        rebuild()
    }

    /// How many times the posts were merged and handed to the list (a like costs one).
    package private(set) var rebuildCount = 0

    /// The viewer just posted: the newest post is selected now and at every merge until the
    /// person presses a key here (the post is merged in after this is asked, and the person may
    /// be on another screen, coming back to Home later).
    package func revealNewest() {
        revealsNewest = true
        selectNewest()
    }

    /// Whether merges select the newest post, until the next key (``revealNewest()``).
    private var revealsNewest = false

    /// Saves the heights just measured with the feed cache, under each entry's version in the
    /// cache, so the next launch never measures these posts again.
    private func storeHeights(of items: [(item: PostItem, version: Int64)]) {
        let versions = Dictionary(
            items.map { ($0.item.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        store(
            list.cachedHeights(of: items.map(\.item)).compactMap { item, rows in
                versions[item.id].map { EntryHeights(entryID: FeedEntryID(item.id), version: $0, rows: rows) }
            })
    }

    /// Stores `measured` with the cache, off the UI actor.
    private func store(_ measured: [EntryHeights]) {
        guard !measured.isEmpty else { return }
        let cache = self.cache
        let width = list.view.width
        context.tracker.run {
            await Task.detached { try? cache.storeHeights(measured, width: width) }.value
        }
    }

    // MARK: Keys

    /// What the feed's keys do.
    enum Command: Sendable {
        case next, previousOrRefresh, open, list(ListKeys.Command), post(PostKeys.Command)
        case carousel(CarouselKeys.Command), viewPhoto
    }

    /// The feed's keys: the one place to add one.
    var keys: KeyTable<Command> {
        let moving: [KeyTable<Command>.Row] =
            // ↑ at the top refreshes: said in the move row, so the help still fits 80x24.
            [.move(down: .next, up: .previousOrRefresh, does: "move (↑ at top refreshes)")]
            + ListKeys.rows(ends: "newest / last loaded post", Command.list)
        let posts: [KeyTable<Command>.Row] =
            [ListKeys.openRow(.open)]
            + PostKeys.rows(
                noun: context.presentation.replyNoun,
                facts: list.selectedItem?.facts, shares: context.sharePost != nil, Command.post)
            + CarouselKeys.rows(Command.carousel)
            // The footer is full at 80 columns: `v` is in the help.
            + PhotoKeys.rows(inFooter: false, Command.viewPhoto)
        return KeyTable(moving + posts)
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        revealsNewest = false
        let asked = askedToDelete
        askedToDelete = nil
        guard let command = keys.command(for: key) else { return false }
        switch command {
        case .next:
            list.selectNext()
            loadMoreIfNearEnd()
        case .previousOrRefresh:
            if list.isAtTop { refresh(saying: true) } else { list.selectPrevious() }
        case .list(.first):
            selectNewest()
        case .list(let move):
            ListKeys.perform(move, on: list)
            loadMoreIfNearEnd()
        case .open:
            list.activate()
        case .carousel(let page):
            CarouselKeys.perform(page, on: list, context: context)
        case .viewPhoto:
            PhotoKeys.open(from: list, context: context)
        case .post(let post):
            askedToDelete = PostKeys.perform(
                post, item: list.selectedItem, context: context,
                size: (list.view.viewportWidth, list.view.viewportHeight), asked: asked)
        }
        if list.selectedIndex == 0 { firstBeforeNewPosts = nil }
        return true
    }

    private func loadMoreIfNearEnd() {
        let index = list.selectedIndex ?? 0
        if index >= list.items.count - 3 { loadMore() }
    }

    private func open(_ item: PostItem) {
        guard item.isConfirmed else {
            context.navigator?.showMessage("this post is not on the server yet")
            return
        }
        context.navigator?.push(
            ThreadScreen(
                context: context, mediaID: item.media.id, width: list.view.viewportWidth,
                height: list.view.viewportHeight))
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        if list.items.isEmpty {
            let text =
                refreshing || !started ? "Loading your feed…" : "Nothing here yet. Pull to refresh (↑)."
            buffer.put(text, style: context.style.secondary, x: rect.x + 2, y: rect.y + 1, clip: rect)
            if !refreshing, started {
                // A new account follows nobody yet: say how to find someone (the shell's `/`).
                buffer.put(
                    "Posts of the people you follow show here: / finds people to follow.",
                    style: context.style.secondary, x: rect.x + 2, y: rect.y + 2, clip: rect)
            }
            return nil
        }
        let newer = newPostsAbove
        guard newer > 0 else {
            list.draw(into: &buffer, in: rect)
            return nil
        }
        // The marker takes the top line over the list, which stays where it was: posts coming in
        // above the place the person reads redraw one line, not every line shifted by one. Only
        // when the selected post starts on that line does the list move down under the marker.
        let (top, rest) = rect.splitTop(1)
        let anchor = list.view.scrollAnchor
        let selectionOnTop = anchor.map { $0.row == list.view.selection && $0.hiddenLines == 0 } ?? false
        list.draw(into: &buffer, in: selectionOnTop ? rest : rect)
        buffer.fill(top, with: " ")
        var marker = StyledLine(
            "\(newer) new \(Plural.of("post", count: newer)) ↑", style: context.style.accent)
        marker.append(" · g to see", style: context.style.secondary)
        buffer.putTruncated(marker, in: Rect(x: top.x + 1, y: top.y, width: top.width - 1, height: 1))
        return nil
    }

    /// Sets the size of the content area.
    package func resize(width: Int, height: Int) {
        list.resize(width: width, height: height)
    }
}
