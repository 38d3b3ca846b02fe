import Composition
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// A profile: the account's name, handle, bio and counts, then its posts, a page at a time (more
/// load as the person nears the end, as on the home feed; the list ends with "✓ That's all of
/// @ada's posts"). On another account's profile `f` follows or unfollows it (through the
/// viewer's actions, shown at once).
@MainActor
package final class ProfileScreen: AppScreen {
    private let context: AppContext
    private let userID: UserID?
    private let list: PostList
    /// The profile and its posts from the server, paged.
    private lazy var pages = PagedLoader<Profile>(
        entries: \.posts, pageSize: Self.pageSize, tracker: context.tracker
    ) { [weak self] cursor, limit, tag in await self?.fetch(cursor: cursor, limit: limit, tag: tag) }
    private var profile: Profile? { pages.page }
    private var loading: Bool { pages.loading }
    /// The profile as shown: the server's, with the viewer's pending follow or unfollow merged.
    private var shown: Profile?
    private var message: String?
    /// The post a first `d` asked to delete; the next key clears it (a second `d` deletes).
    private var askedToDelete: MediaID?
    /// The header's lines now: the name, the bio (1 to ``bioLines`` lines), the counts and a rule.
    private var headerLines = 4
    /// The most lines of the bio the header shows (the last ends in "…" when it is cut).
    static let bioLines = 3
    /// The screen's size.
    private var size: (width: Int, height: Int)
    /// The list's size, under the header.
    private var listSize: (width: Int, height: Int)
    /// Posts asked for per page; a reload asks for as many as are shown (up to the server's 100).
    static let pageSize = 30

    /// Makes the profile of `userID` (nil: the viewer's own).
    package init(context: AppContext, userID: UserID?, width: Int, height: Int) {
        self.context = context
        self.userID = userID
        size = (width, height)
        listSize = (width, max(height - 4, 1))
        list = PostList(context: context, width: width, height: listSize.height)
        list.onActivate = { [weak self] item in self?.open(item) }
    }

    /// The posts shown (for tests).
    package var items: [PostItem] { list.items }
    /// The list (for tests).
    package var postList: PostList { list }

    package var title: String { profile.map { "@" + $0.user.handle } ?? "Profile" }

    package var status: String? {
        loading ? "loading…" : message ?? followProblem
    }

    /// That the viewer's follow or unfollow of this account was refused (already rolled back),
    /// and where to see why and retry it: the tab of the viewer's changes, in the `tabs` socket's
    /// word.
    private var followProblem: String? {
        guard let user = shown?.user,
            let record = context.mutations.failed.last(where: {
                $0.mutation == .follow(user.id) || $0.mutation == .unfollow(user.id)
            })
        else { return nil }
        let verb = record.mutation == .follow(user.id) ? "follow" : "unfollow"
        return "✕ could not \(verb) @\(user.handle)" + (context.retryHint ?? "")
    }

    package func appear() {
        // What changed while another screen was shown (an edit of the viewer's name) shows now,
        // before the server answers (or when it cannot).
        rebuild()
        load()
    }

    /// Loads the profile and its first posts; coming back to it loads as many as were shown, so
    /// the person keeps their place, and costs no merge or redraw of the list when the server
    /// says nothing changed.
    private func load() {
        pages.load { [weak self] outcome in
            switch outcome {
            case .loaded: self?.rebuild()
            case .unchanged: self?.context.navigator?.setNeedsDisplay()  // the status line's "loading…" goes
            case .failed(let error): self?.showProblem(error, doing: "load the profile")
            }
        }
    }

    /// Loads the next page of posts, when there is one and nothing else is loading.
    private func loadMore() {
        pages.loadMore { [weak self] result in
            switch result {
            case .success: self?.rebuild()
            case .failure(let error): self?.showProblem(error, doing: "load more posts")
            }
        }
    }

    /// Says why a load did not bring the posts.
    private func showProblem(_ error: TransportError, doing: String) {
        message = FeedScreen.describe(error, doing: doing)
        context.navigator?.setNeedsDisplay()
    }

    /// One page of the profile from the server (its facts go to the media store); with `tag`,
    /// unless it changed.
    private func fetch(cursor: String?, limit: Int, tag: String?) async -> Result<
        PagedLoader<Profile>.Fetched, TransportError
    > {
        let client = context.client
        let store = context.mediaStore
        let userID = userID
        do throws(TransportError) {
            let envelope: WireEnvelope<Profile>?
            if let tag {
                envelope = try await client.profile(userID, cursor: cursor, limit: limit, ifNoneMatch: tag)
            } else if let userID {
                envelope = try await client.profile(userID, cursor: cursor, limit: limit)
            } else {
                envelope = try await client.me(cursor: cursor, limit: limit)
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

    /// How many times the profile was merged and handed to the list.
    package private(set) var rebuildCount = 0

    private func rebuild() {
        guard let profile else { return }
        rebuildCount += 1
        let policy = context.registry[.feedPolicy]
        let facts = context.mediaStore.facts(for: profile.posts.entries.flatMap(\.mediaIDs))
        let merged = context.mutations.mergedProfile(profile, facts: facts)
        shown = merged.profile
        let rows = merged.posts
        let items = rows.filter { policy.shows($0.entry.media.kind) || $0.entry.media.kind == .text }.map {
            row in
            PostItem(id: row.entry.id.rawValue, row: row, age: context.age(of: row.entry.media.createdAt))
        }
        let style = context.style
        let end =
            profile.posts.nextCursor != nil
            ? []
            : items.isEmpty
                ? [StyledLine("@\(profile.user.handle) has no posts yet", style: style.secondary)]
                : [StyledLine("✓ That's all of @\(profile.user.handle)'s posts", style: style.secondary)]
        layOutHeader()
        list.show(items) { [weak self] in
            self?.list.view.trailer = end
        }
    }

    /// The bio's lines at `width`: wrapped, at most ``bioLines``, the last ending in "…" when
    /// more were cut.
    private func bioLines(of user: User, width: Int) -> [String] {
        guard !user.bio.isEmpty else { return [] }
        let wrapped = TextLayout.wrap(user.bio, width: max(width, 8))
        guard wrapped.count > Self.bioLines else { return wrapped }
        var kept = Array(wrapped.prefix(Self.bioLines))
        kept[kept.count - 1] = TextLayout.truncate(kept[kept.count - 1] + " …", width: max(width, 8))
        return kept
    }

    /// Sizes the header for the profile's bio at the screen's width, and the list under it.
    private func layOutHeader() {
        let bio = (shown ?? profile).map { bioLines(of: $0.user, width: size.width - 1).count } ?? 0
        headerLines = 3 + max(bio, 1)
        // The list lays out again only when its size changed.
        let listSize = (width: size.width, height: max(size.height - headerLines, 1))
        guard listSize != self.listSize else { return }
        self.listSize = listSize
        list.resize(width: listSize.width, height: listSize.height)
    }

    package func dataDidChange() {
        rebuild()
    }

    // MARK: Keys

    /// What the profile's keys do.
    enum Command: Sendable {
        case next, previous, open, list(ListKeys.Command), post(PostKeys.Command), follow, edit, back
        case switchAccount
        case carousel(CarouselKeys.Command), viewPhoto
    }

    /// The profile's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable(
            [.move(down: .next, up: .previous)] + ListKeys.rows(Command.list)
                + [ListKeys.openRow(.open)]
                + PostKeys.rows(
                    noun: context.presentation.replyNoun, footer: [.like], facts: list.selectedItem?.facts,
                    shares: context.sharePost != nil, Command.post)
                + CarouselKeys.rows(Command.carousel) + PhotoKeys.rows(Command.viewPhoto) + followRow
                + editRow + switchRow + [
                    .init([.escape, .backspace], .back, does: "back", footer: "esc")
                ])
    }

    /// `f`, saying what pressing it does now; none on the viewer's own profile.
    private var followRow: [KeyTable<Command>.Row] {
        guard let shown, !shown.isViewer else { return [] }
        return [Self.followRow(follows: shown.viewerFollows, .follow)]
    }

    /// `f` on another account's profile: follow, or unfollow when `follows`.
    nonisolated static func followRow<ScreenCommand>(follows: Bool, _ command: ScreenCommand)
        -> KeyTable<ScreenCommand>.Row
    {
        .init([.character("f")], command, does: follows ? "unfollow" : "follow", footer: "f")
    }

    /// `e`, on the viewer's own profile only: their name and bio.
    private var editRow: [KeyTable<Command>.Row] {
        guard let shown, shown.isViewer else { return [] }
        return [Self.editRow(.edit)]
    }

    /// `e` on the viewer's own profile: their name and bio.
    nonisolated static func editRow<ScreenCommand>(_ command: ScreenCommand) -> KeyTable<ScreenCommand>.Row {
        .init([.character("e")], command, does: "edit your name and bio", footer: "e", footerDoes: "edit")
    }

    /// `a`, on the viewer's own profile where the app can switch accounts inside the run.
    private var switchRow: [KeyTable<Command>.Row] {
        guard let shown, shown.isViewer, context.switchAccount != nil else { return [] }
        return [Self.switchRow(.switchAccount)]
    }

    /// `a` on the viewer's own profile: sign in as another account inside the run.
    nonisolated static func switchRow<ScreenCommand>(_ command: ScreenCommand) -> KeyTable<ScreenCommand>.Row
    {
        .init([.character("a")], command, does: "switch account", footer: nil)
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
        case .post(.profile) where list.selectedItem?.media.author.id == profile?.user.id:
            context.navigator?.showMessage("this is @\(profile?.user.handle ?? "")'s profile")
        case .post(let post):
            askedToDelete = PostKeys.perform(
                post, item: list.selectedItem, context: context,
                size: (list.view.viewportWidth, list.view.viewportHeight + headerLines), asked: asked)
        case .follow: toggleFollow()
        case .edit: editProfile()
        case .switchAccount: context.switchAccount?()
        case .back: context.navigator?.pop()
        }
        return true
    }

    /// Opens the editor of the viewer's name and bio; once saved, the profile shows them.
    private func editProfile() {
        guard let shown, shown.isViewer else { return }
        context.navigator?.push(ProfileEditorScreen(context: context, user: shown.user))
    }

    private func toggleFollow() {
        guard let shown, !shown.isViewer else { return }
        guard let actions = context.actions else {
            context.navigator?.showMessage("changes are not available in this build")
            return
        }
        actions.setFollowing(shown.user, follows: !shown.viewerFollows)
    }

    /// The post selected now.
    package var selectedMedia: Media? { list.selectedItem?.media }

    private func open(_ item: PostItem) {
        context.navigator?.push(
            ThreadScreen(
                context: context, mediaID: item.media.id, width: list.view.viewportWidth,
                height: list.view.viewportHeight + headerLines))
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        guard let profile else {
            buffer.put(
                loading ? "Loading…" : "", style: style.secondary, x: rect.x + 2, y: rect.y + 1, clip: rect)
            return nil
        }
        // The user as merged: the viewer's own edits of their name and bio show at once.
        let user = (shown ?? profile).user
        let bio = bioLines(of: user, width: rect.width - 1)
        let (header, rest) = rect.splitTop(headerLines)
        // A long name is cut so the handle after it shows whole.
        let name = TextLayout.truncate(
            StyledLine(user.displayName, style: style.strong),
            keeping: StyledLine("  @" + user.handle, style: style.secondary), width: header.width - 1)
        buffer.putTruncated(name, in: Rect(x: header.x + 1, y: header.y, width: header.width - 1, height: 1))
        for (offset, line) in bio.enumerated() {
            buffer.putTruncated(
                StyledLine(line, style: style.text),
                in: Rect(x: header.x + 1, y: header.y + 1 + offset, width: header.width - 1, height: 1))
        }
        let countsLine = header.y + 1 + max(bio.count, 1)
        buffer.putTruncated(
            StyledLine(Self.counts(of: shown ?? profile), style: style.secondary),
            in: Rect(x: header.x + 1, y: countsLine, width: header.width - 1, height: 1))
        buffer.horizontalRule(y: countsLine + 1, x: header.x, length: header.width, style: style.separator)
        list.draw(into: &buffer, in: rest)
        return nil
    }

    /// The header's counts line: "1 post · 12 followers · 3 following", and "you follow" when the
    /// viewer does.
    package static func counts(of profile: Profile) -> String {
        "\(profile.postCount) \(Plural.of("post", count: profile.postCount)) · "
            + "\(profile.followerCount) \(Plural.of("follower", count: profile.followerCount)) · "
            + "\(profile.followingCount) following" + (profile.viewerFollows ? " · you follow" : "")
    }

    package func resize(width: Int, height: Int) {
        size = (width, height)
        layOutHeader()
    }
}
