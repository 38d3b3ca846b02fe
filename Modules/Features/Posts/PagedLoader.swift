import MediaModel
import Wire

/// A screen's paged server content: a page whose `entries` field (a `FeedPage`) grows as the
/// person scrolls. The first load asks for one page; loading again asks for as many entries as
/// are shown (up to the server's 100), so the person keeps their place; the pages after it come
/// one at a time, never while another load runs, and a page whose cursor is no longer the next
/// one (a reload finished meanwhile) is dropped. The profile and the thread load through it.
///
/// A reload is conditional: it sends back the tag (`ETag`) of the last first page it got, when
/// it asks for as many entries as that page had, and a server that finds the page unchanged
/// answers 304 with no body. Such a reload reports `unchanged`, and the screen neither merges
/// nor redraws its list.
@MainActor
package final class PagedLoader<Page: Sendable> {
    /// What a fetch brought: a page (with its tag, when the server sent one), or the word that
    /// the page is what the tag named.
    package enum Fetched: Sendable {
        case page(Page, tag: String?)
        case unchanged
    }

    /// What a load of the first page ended with.
    package enum Outcome {
        /// A page came; `first` when it is the first page this loader got.
        case loaded(first: Bool)
        /// The server said the page is unchanged (304): nothing to merge or draw.
        case unchanged
        case failed(TransportError)
    }

    /// One page from the server: the cursor to start after (nil for the first page), how many
    /// entries to ask for, and the tag to send as `If-None-Match` (nil: ask unconditionally).
    /// Nil when the screen asking is gone.
    package typealias Fetch =
        @MainActor (_ cursor: String?, _ limit: Int, _ tag: String?) async -> Result<Fetched, TransportError>?

    /// The content loaded so far, or nil before the first load arrives.
    package private(set) var page: Page?
    /// Whether a (re)load of the first page is on its way.
    package private(set) var loading = false
    private var loadingMore = false
    private let entries: WritableKeyPath<Page, FeedPage>
    private let pageSize: Int
    private let tracker: WorkTracker
    private let fetch: Fetch
    /// The last first page's tag and how many entries it was asked for.
    private var firstPageTag: (tag: String, limit: Int)?

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

    /// Loads the first page, or again as many entries as are shown (conditionally, when the last
    /// first page had that many); `done` gets the outcome unless the screen is gone.
    package func load(_ done: @escaping @MainActor (_ outcome: Outcome) -> Void) {
        loading = true
        let limit = min(max(page?[keyPath: entries].entries.count ?? 0, pageSize), 100)
        let tag = page != nil && firstPageTag?.limit == limit ? firstPageTag?.tag : nil
        tracker.run { [weak self] in
            guard let self, let result = await self.fetch(nil, limit, tag) else { return }
            self.loading = false
            switch result {
            case .success(.page(let page, let tag)):
                let first = self.page == nil
                self.page = page
                self.firstPageTag = tag.map { ($0, limit) }
                done(.loaded(first: first))
            case .success(.unchanged):
                done(.unchanged)
            case .failure(let error):
                done(.failed(error))
            }
        }
    }

    /// Loads the next page, when there is one and nothing else is loading; `done` gets the
    /// outcome of a page that was still the next one when it came.
    package func loadMore(_ done: @escaping @MainActor (_ result: Result<Page, TransportError>) -> Void) {
        guard !loading, !loadingMore, let cursor = page?[keyPath: entries].nextCursor else { return }
        loadingMore = true
        tracker.run { [weak self] in
            guard let self, let result = await self.fetch(cursor, self.pageSize, nil) else { return }
            self.loadingMore = false
            switch result {
            case .success(.unchanged):
                return  // never: no tag was sent
            case .success(.page(let more, _)):
                // A reload that finished meanwhile has its own cursor: this page is not next any more.
                guard var page = self.page, page[keyPath: self.entries].nextCursor == cursor else { return }
                page[keyPath: self.entries].append(nextPage: more[keyPath: self.entries])
                self.page = page
                done(.success(page))
            case .failure(let error):
                done(.failure(error))
            }
        }
    }
}
