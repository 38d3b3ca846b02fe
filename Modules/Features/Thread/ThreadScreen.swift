import Composition
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// A post with its context: the posts above it (root first), the post, and its replies. Threaded
/// posts are drawn joined by threadlines; comments are drawn compact under the post. Which one
/// is decided by the `replyModel` socket. Replies come a page at a time, oldest first; more load
/// as the person nears the end, as on the home feed.
@MainActor
package final class ThreadScreen: AppScreen {
    private let context: AppContext
    /// The post the thread is about.
    package let mediaID: MediaID
    private let list: PostList
    /// The thread from the server, its replies paged.
    private lazy var pages = PagedLoader<ThreadPage>(
        entries: \.replies, pageSize: Self.pageSize, tracker: context.tracker
    ) { [weak self] cursor, limit, tag in await self?.fetch(cursor: cursor, limit: limit, tag: tag) }
    private var page: ThreadPage? { pages.page }
    private var loading: Bool { pages.loading }
    private var message: String?
    /// The post a first `d` asked to delete; the next key clears it (a second `d` deletes).
    private var askedToDelete: MediaID?
    /// Whether the thread closed itself because its post was deleted.
    private var closed = false
    /// Replies asked for per page (the server's default page is smaller).
    static let pageSize = 50

    /// Makes the thread of `mediaID` for a content area of `width` × `height`.
    package init(context: AppContext, mediaID: MediaID, width: Int, height: Int) {
        self.context = context
        self.mediaID = mediaID
        list = PostList(context: context, width: width, height: height)
        list.onActivate = { [weak self] item in self?.open(item) }
    }

    package var title: String {
        context.registry[.replyModel].style == .threadedPosts ? "Thread" : "Comments"
    }

    package var status: String? {
        loading ? "loading…" : message
    }

    /// The posts shown (for tests).
    package var items: [PostItem] { list.items }
    /// The list (for tests).
    package var postList: PostList { list }

    package func appear() {
        if page == nil { load() } else { rebuild() }
    }

    /// Loads the thread from the server; loading it again asks for as many replies as are shown
    /// (up to the server's 100), so the person keeps their place, and costs no merge or redraw
    /// of the list when the server says nothing changed.
    package func load() {
        pages.load { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .loaded(let first):
                self.rebuild(selecting: first ? self.page.map { "focus:\($0.post.id.rawValue)" } : nil)
            case .unchanged:
                self.context.navigator?.setNeedsDisplay()  // the status line's "loading…" goes
            case .failed(let error):
                self.showProblem(error, doing: "load this thread")
            }
        }
    }

    /// Loads the next page of replies, when there is one and nothing else is loading.
    private func loadMore() {
        pages.loadMore { [weak self] result in
            switch result {
            case .success: self?.rebuild()
            case .failure(let error): self?.showProblem(error, doing: "load more replies")
            }
        }
    }

    private func showProblem(_ error: TransportError, doing: String) {
        message = FeedScreen.describe(error, doing: doing)
        context.navigator?.setNeedsDisplay()
    }

    /// One page of the thread from the server (its facts go to the media store); with `tag`,
    /// unless it changed.
    private func fetch(cursor: String?, limit: Int, tag: String?) async -> Result<
        PagedLoader<ThreadPage>.Fetched, TransportError
    > {
        let client = context.client
        let store = context.mediaStore
        let id = mediaID
        do throws(TransportError) {
            let envelope =
                if let tag {
                    try await client.thread(id, cursor: cursor, limit: limit, ifNoneMatch: tag)
                } else {
                    try await client.thread(id, cursor: cursor, limit: limit)
                }
            guard let envelope else { return .success(.unchanged) }
            store.apply(envelope.facts)
            return .success(.page(envelope.payload, tag: envelope.etag))
        } catch {
            return .failure(error)
        }
    }

    private func loadMoreIfNearEnd() {
        let index = list.selectedIndex ?? 0
        if index >= list.items.count - 3 { loadMore() }
    }

    /// How many times the thread was merged and handed to the list.
    package private(set) var rebuildCount = 0

    func rebuild(selecting id: String? = nil) {
        guard let page else { return }
        rebuildCount += 1
        let ids = page.ancestors.map(\.id) + [page.post.id] + page.replies.entries.flatMap(\.mediaIDs)
        let facts = context.mediaStore.facts(for: ids)
        let merged = context.mutations.mergedThread(page, facts: facts)
        guard !merged.isDeleted else {
            closeDeleted()
            return
        }
        func mergedFacts(of media: Media) -> MediaFacts {
            merged.facts[media.id] ?? context.facts(for: media)
        }
        var items: [PostItem] = []
        for ancestor in merged.ancestors {
            items.append(
                item(
                    ancestor, facts: mergedFacts(of: ancestor), role: .ancestor,
                    id: "ancestor:\(ancestor.id.rawValue)"))
        }
        items.append(
            item(
                merged.post, facts: mergedFacts(of: merged.post), role: .focus,
                id: "focus:\(merged.post.id.rawValue)",
                status: merged.postStatus,
                notSent: context.mutations.notSent(merged.post.id, facts: mergedFacts(of: merged.post))))
        for reply in merged.replies {
            // A reply sits under the post it answers, so it is drawn on its own, not with its parent.
            var row = reply
            row.entry.context = .standalone
            items.append(
                PostItem(
                    id: "reply:\(reply.entry.id.rawValue)", row: row, role: .reply,
                    age: context.age(of: reply.entry.media.createdAt)))
        }
        list.show(items) { [weak self] in
            if let id { self?.list.select(id: id) }
        }
    }

    package func dataDidChange() {
        rebuild()
    }

    /// The post the thread is about was deleted (the viewer's `d` twice on it, here or on
    /// another screen): there is nothing left to show, so the thread closes, back to where the
    /// person came from, which no longer lists the post either. Once.
    private func closeDeleted() {
        guard !closed else { return }
        closed = true
        context.navigator?.pop()
        context.navigator?.showMessage("post deleted")
    }

    /// An ancestor or the focused post: a post of the thread page, not an entry of a feed, shown
    /// standalone.
    private func item(
        _ media: Media, facts: MediaFacts, role: PostItem.Role, id: String,
        status: OptimisticStatus = .server,
        notSent: [MutationKind] = []
    ) -> PostItem {
        let entry = FeedEntry(id: FeedEntryID(id), media: media)
        let row = MergedEntry(entry: entry, facts: facts, status: status, notSent: notSent)
        return PostItem(id: id, row: row, role: role, age: context.age(of: media.createdAt))
    }

    /// The post selected now (the focused post when nothing is).
    package var selectedMedia: Media? {
        list.selectedItem?.media ?? page?.post
    }

    // MARK: Keys

    /// What the thread's keys do.
    enum Command: Sendable {
        case next, previous, open, list(ListKeys.Command), post(PostKeys.Command), back
        case carousel(CarouselKeys.Command), viewPhoto
    }

    /// The thread's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable(
            [
                .move(down: .next, up: .previous)
            ]
                + ListKeys.rows(Command.list)
                + [ListKeys.openRow(.open)]
                + PostKeys.rows(
                    noun: context.presentation.replyNoun, facts: list.selectedItem?.facts,
                    shares: context.sharePost != nil, Command.post)
                + CarouselKeys.rows(Command.carousel)
                + PhotoKeys.rows(Command.viewPhoto)
                + [.init([.escape, .backspace], .back, does: "back", footer: "esc")])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        let asked = askedToDelete
        askedToDelete = nil
        guard let command = keys.command(for: key) else { return false }
        switch command {
        case .next:
            list.selectNext()
            loadMoreIfNearEnd()
        case .previous: list.selectPrevious()
        case .list(let move):
            ListKeys.perform(move, on: list)
            loadMoreIfNearEnd()
        case .open: list.activate()
        case .carousel(let page): CarouselKeys.perform(page, on: list, context: context)
        case .viewPhoto: PhotoKeys.open(from: list, context: context)
        case .post(let post):
            // Comments answer the post, whichever comment is selected.
            let commentsAnswerThePost =
                post == .change(.reply) && context.registry[.replyModel].style == .comments
            let target = commentsAnswerThePost ? list.items.first { $0.role == .focus } : list.selectedItem
            askedToDelete = PostKeys.perform(
                post, item: target, context: context,
                size: (list.view.viewportWidth, list.view.viewportHeight), asked: asked)
        case .back: context.navigator?.pop()
        }
        return true
    }

    /// Opens `item`'s own thread: any post where replies are threaded; where they are comments,
    /// a post above, or a comment that has replies of its own (made in an app whose replies are
    /// threaded), so no reply is out of reach.
    private func open(_ item: PostItem) {
        let threaded = context.registry[.replyModel].style == .threadedPosts
        guard item.role != .focus, threaded || item.role == .ancestor || item.facts.replyCount > 0 else {
            return
        }
        let size = (width: list.view.viewportWidth, height: list.view.viewportHeight)
        context.navigator?.push(
            ThreadScreen(context: context, mediaID: item.media.id, width: size.width, height: size.height))
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        if list.items.isEmpty {
            buffer.put(
                loading ? "Loading…" : "", style: context.style.secondary, x: rect.x + 2, y: rect.y + 1,
                clip: rect)
            return nil
        }
        list.draw(into: &buffer, in: rect)
        // The replies shown, merged with the viewer's own: a pending reply is a reply.
        if page != nil, !list.items.contains(where: { $0.role == .reply }),
            list.view.contentHeight < rect.height
        {
            let noun = context.registry[.replyModel].noun
            buffer.put(
                "No \(Plural.of(noun)) yet. Press r to add one.", style: context.style.secondary,
                x: rect.x + 1,
                y: rect.y + list.view.contentHeight, clip: rect)
        }
        return nil
    }

    package func resize(width: Int, height: Int) {
        list.resize(width: width, height: height)
    }
}
