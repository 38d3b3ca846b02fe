import MediaModel
import Wire

/// A screen's paged server content: a page whose `entries` field (a `FeedPage`) grows as the
/// person scrolls. The first load asks for one page; loading again asks for as many entries as
/// are shown (up to the server's 100), so the person keeps their place; the pages after it come
/// one at a time, never while another load runs, and a page whose cursor is no longer the next
/// one (a reload finished meanwhile) is dropped. The profile and the thread load through it.
@MainActor
package final class PagedLoader<Page: Sendable> {
    /// One page from the server: the cursor to start after (nil for the first page) and how many
    /// entries to ask for. Nil when the screen asking is gone.
    package typealias Fetch =
        @MainActor (_ cursor: String?, _ limit: Int) async -> Result<Page, TransportError>?

    /// The content loaded so far, or nil before the first load arrives.
    package private(set) var page: Page?
    /// Whether a (re)load of the first page is on its way.
    package private(set) var loading = false
    private var loadingMore = false
    private let entries: WritableKeyPath<Page, FeedPage>
    private let pageSize: Int
    private let tracker: WorkTracker
    private let fetch: Fetch

    /// A loader of pages of `pageSize` entries, kept at `entries` in each page, fetched with
    /// `fetch` as work `tracker` tracks.
    package init(
        entries: WritableKeyPath<Page, FeedPage>, pageSize: Int, tracker: WorkTracker, fetch: @escaping Fetch
    ) {
        self.entries = entries
        self.pageSize = pageSize
        self.tracker = tracker
        self.fetch = fetch
    }

    /// Loads the first page, or again as many entries as are shown; `done` gets the outcome (and
    /// whether it is the first page this loader got) unless the screen is gone.
    package func load(
        _ done: @escaping @MainActor (_ result: Result<Page, TransportError>, _ first: Bool) -> Void
    ) {
        loading = true
        let limit = min(max(page?[keyPath: entries].entries.count ?? 0, pageSize), 100)
        tracker.run { [weak self] in
            guard let self, let result = await self.fetch(nil, limit) else { return }
            self.loading = false
            let first = self.page == nil
            if case .success(let page) = result { self.page = page }
            done(result, first)
        }
    }

    /// Loads the next page, when there is one and nothing else is loading; `done` gets the
    /// outcome of a page that was still the next one when it came.
    package func loadMore(_ done: @escaping @MainActor (_ result: Result<Page, TransportError>) -> Void) {
        guard !loading, !loadingMore, let cursor = page?[keyPath: entries].nextCursor else { return }
        loadingMore = true
        tracker.run { [weak self] in
            guard let self, let result = await self.fetch(cursor, self.pageSize) else { return }
            self.loadingMore = false
            switch result {
            case .success(let more):
                // A reload that finished meanwhile has its own cursor: this page is not next any more.
                guard var page = self.page, page[keyPath: self.entries].nextCursor == cursor else { return }
                page[keyPath: self.entries].append(nextPage: more[keyPath: self.entries])
                self.page = page
                done(.success(page))
            case .failure:
                done(result)
            }
        }
    }
}
