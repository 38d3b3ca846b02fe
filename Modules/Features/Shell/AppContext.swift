import Composition
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// What screens share while the app runs: its sockets, its services, the clock, the tracker of
/// outstanding work, the signed-in viewer, and the way to navigate and show banners.
@MainActor
package final class AppContext {
    /// The app's sockets.
    package let registry: SocketRegistry
    /// How posts look.
    package let presentation: PostPresentation
    /// The API client, the media store and the server's reachability (`network.client`).
    package let network: any NetworkClient
    /// The home feed cache (`feed.cache`); nil in an app whose manifest enables none (an app
    /// without a Home feed, such as one whose first tab is the inbox).
    package let feedCache: (any HomeFeedStore)?
    /// The app's clock (a manual one in headless runs).
    package let clock: any WallClock
    /// Outstanding work, for headless `wait`.
    package let tracker: WorkTracker
    /// The signed-in account, once known.
    package var viewer: User?
    /// Shows screens, banners and messages.
    package weak var navigator: (any AppNavigator)?
    /// Carries out the viewer's changes (through the mutation manager).
    package var actions: (any ViewerActions)?
    /// Where the unsent new post is kept (set by the app runtime to the app's data directory).
    package var drafts: DraftStore?

    /// The stores of the other drafts (a conversation's unsent message), one per file for as
    /// long as the app runs: every write to one file goes through one queue, whichever screen
    /// asked for it, and ``flushDrafts()`` waits for them all.
    private var otherDrafts: [String: DraftStore] = [:]

    /// The store of the draft in the file at `path`: the one made before for that file, else
    /// the one `make` makes.
    package func draftStore(at path: String, _ make: () -> DraftStore) -> DraftStore {
        if let kept = otherDrafts[path] { return kept }
        let store = make()
        otherDrafts[path] = store
        return store
    }

    /// Returns once every draft write asked for so far is on disk (the app runtime calls it as
    /// an account changes and as the app stops: a process that ends with writes queued would
    /// leave an older draft behind).
    package func flushDrafts() {
        drafts?.flush()
        for store in otherDrafts.values { store.flush() }
    }
    /// The folder the composer's photo picker starts in (set by the app runtime from
    /// `--photos-dir`; the current directory until then).
    package var photosDirectory = FileManager.default.currentDirectoryPath
    /// The viewer's changes not yet confirmed (`mutations.replay`'s manager): screens show
    /// server data merged with them, through its merges only.
    package let mutations: any PendingChanges

    /// Makes a context from its parts: screens see them through their interfaces only, so a
    /// test can give them a client over a stub transport, or stubs of their own.
    ///
    /// When `photoArt` is given, stored photos are drawn from their real pixels, and the posts
    /// showing a photo draw again when its art arrives.
    ///
    /// - Throws: `AppContextError` when a tab shows the home feed and `feedCache` is nil.
    package init(
        registry: SocketRegistry, network: any NetworkClient, feedCache: (any HomeFeedStore)?,
        mutations: any PendingChanges, colorMode: ColorMode, imageMode: ImageMode, clock: any WallClock,
        tracker: WorkTracker, photoArt: PhotoArtStore? = nil
    ) throws(AppContextError) {
        if feedCache == nil, let home = registry[.tabs].tabs.first(where: { $0.destination == .home }) {
            throw AppContextError(
                "the tab '\(home.title)' shows the home feed, which needs 'feed.cache'; enable it in the manifest, or remove the tab"
            )
        }
        self.registry = registry
        self.network = network
        self.feedCache = feedCache
        self.mutations = mutations
        var presentation = PostPresentation(registry: registry, colorMode: colorMode, imageMode: imageMode)
        presentation.photoArt = photoArt
        self.presentation = presentation
        self.clock = clock
        self.tracker = tracker
        if let photoArt {
            photoArt.setObserver { [weak self] photoID in self?.photoArtDidArrive(photoID) }
            networkChangeHandlers.append { photoArt.retryFailed() }
        }
    }

    /// Makes a context for a running app, from its `network.client`, `feed.cache` (when
    /// enabled) and `mutations.replay` services.
    ///
    /// - Throws: `AppContextError` naming the service the manifest does not enable.
    package convenience init(
        app: RunningApp, colorMode: ColorMode, imageMode: ImageMode, clock: any WallClock,
        tracker: WorkTracker, photoArt: PhotoArtStore? = nil
    ) throws(AppContextError) {
        guard let network = app.service(.networkClient) else {
            throw AppContextError("the manifest does not enable 'network.client'; every screen needs it")
        }
        guard let replay = app.service(.mutationReplay), let manager = try? replay.manager else {
            throw AppContextError(
                "the manifest does not enable 'mutations.replay'; every change the viewer makes goes through it"
            )
        }
        try self.init(
            registry: app.registry, network: network, feedCache: try? app.service(.feedCache)?.cache,
            mutations: manager, colorMode: colorMode, imageMode: imageMode, clock: clock, tracker: tracker,
            photoArt: photoArt)
    }

    /// The post lists that draw photos, told when a photo's art arrives (held weakly).
    private var photoArtLists: [WeakPostList] = []

    /// Makes `list` hear of arriving photo art, for as long as it lives.
    package func observePhotoArt(_ list: PostList) {
        photoArtLists.removeAll { $0.list == nil }
        photoArtLists.append(WeakPostList(list: list))
    }

    /// The art of photo `photoID` arrived: the posts showing it draw again, and the screen.
    private func photoArtDidArrive(_ photoID: String) {
        photoArtLists.removeAll { $0.list == nil }
        var redrawn = false
        for entry in photoArtLists {
            if entry.list?.photoArtDidArrive(photoID) == true { redrawn = true }
        }
        if redrawn { navigator?.setNeedsDisplay() }
    }

    /// The tabs the tab bar shows: the `tabs` socket's, at most six, without a tab whose feature
    /// the app leaves out (the inbox, when the `direct` socket is empty: an optional socket left
    /// empty takes its feature away, and nothing breaks).
    package var tabs: [Tab] { Self.tabs(in: registry) }

    /// The tabs an app composed as `registry` shows (see ``tabs``).
    package nonisolated static func tabs(in registry: SocketRegistry) -> [Tab] {
        let hasDirect = registry[.direct] != nil
        return Array(registry[.tabs].tabs.filter { $0.destination != .direct || hasDirect }.prefix(6))
    }
    /// The client, signed in as the viewer.
    package var client: APIClient { network.client }
    /// The single source of truth for shared facts.
    package var mediaStore: MediaStore { network.mediaStore }
    /// The styles.
    package var style: AppStyle { presentation.style }

    /// What a tab's title carries beside it, by the tab's destination (the inbox's unread
    /// count): set by the feature that keeps the count, drawn by the tab bar.
    package var tabBadges: [TabDestination: String] = [:]

    /// Who hears each event of the backend's event stream as it arrives (a conversation that is
    /// open, the inbox that counts), each for as long as its owner lives.
    private var eventObservers: [(owner: WeakOwner, handler: @MainActor (ActivityEvent) -> Void)] = []

    /// Calls `handler` with each event of the backend's event stream, for as long as `owner`
    /// lives (a screen's hook goes with the screen).
    package func observeEvents(_ owner: AnyObject, _ handler: @escaping @MainActor (ActivityEvent) -> Void) {
        eventObservers.removeAll { $0.owner.object == nil }
        eventObservers.append((WeakOwner(object: owner), handler))
    }

    /// Sends a post to a conversation (the `s` key on a post): set by the feature that has
    /// conversations, nil in an app without them, where no screen offers it.
    package var sharePost: (@MainActor (Media) -> Void)?

    /// Opens a conversation (Enter on a message's Activity row): set by the feature that has
    /// conversations, nil in an app without them.
    package var openConversation: (@MainActor (ConversationID) -> Void)?

    /// Signs in as another account inside the run (`a` on the viewer's own profile): set by the
    /// app runtime, which shows onboarding over the app (esc stays) and, once another account is
    /// in, loads every tab afresh as it.
    package var switchAccount: (@MainActor () -> Void)?

    /// The app's data directory (set by the app runtime): where features keep their files.
    package var dataDirectory: String?

    /// What features keep for as long as the app runs (the inbox), one per type.
    private var models: [ObjectIdentifier: AnyObject] = [:]

    /// The model of type `M` a feature kept, if any.
    package func model<M: AnyObject>(_ type: M.Type) -> M? {
        models[ObjectIdentifier(type)] as? M
    }

    /// Keeps `model` for as long as the app runs, found again by its type.
    package func keep<M: AnyObject>(_ model: M) {
        models[ObjectIdentifier(M.self)] = model
    }

    /// An event arrived on the backend's event stream: every hook hears it.
    package func eventDidArrive(_ event: ActivityEvent) {
        eventObservers.removeAll { $0.owner.object == nil }
        for observer in eventObservers { observer.handler(event) }
    }

    /// The network conditions switch, when the transport has one (set by the app runtime, which
    /// picked the transport).
    package var faultControl: (any FaultControl)?

    /// Hooks that run when the network conditions change (the mutation manager resets its
    /// backoff there).
    package var networkChangeHandlers: [@MainActor () -> Void] = []

    /// The network conditions changed.
    package func networkDidChange() {
        for handler in networkChangeHandlers { handler() }
    }

    /// The age of `date` on the app's clock.
    package func age(of date: Date) -> String {
        AgeFormatter.age(of: date, now: clock.now)
    }

    /// The facts to show for a post: the store's (zero counts for a post the store has not seen)
    /// with the viewer's pending changes applied.
    package func facts(for media: Media) -> MediaFacts {
        mutations.mergedFacts(mediaStore.facts(for: media.id), for: media.id)
    }

    /// Where a refused change can be seen and retried, to follow a message that says it failed:
    /// ` · Sync (5) says why and retries`, in the `tabs` socket's word; nil when the app has no
    /// tab of the viewer's changes.
    package var retryHint: String? {
        let tabs = tabs
        return tabs.firstIndex { $0.destination == .mutations }.map {
            " · \(tabs[$0].title) (\($0 + 1)) says why and retries"
        }
    }
}

/// An observer's owner, held weakly.
private struct WeakOwner {
    weak var object: AnyObject?
}

/// A post list held weakly.
@MainActor
private struct WeakPostList {
    weak var list: PostList?
}

/// What screens ask of the shell.
@MainActor
package protocol AppNavigator: AnyObject {
    /// Shows a screen on top of the current one.
    func push(_ screen: any AppScreen)
    /// Goes back one screen.
    func pop()
    /// Shows a banner line for a few seconds (push events, confirmations).
    func showBanner(_ text: String)
    /// Shows a message on the status line until the next key.
    func showMessage(_ text: String)
    /// Shows a message on the status line until the next key, its words asked for again at every
    /// redraw so it says what is true now ("reposted @grace's post", then, if the server refuses,
    /// "✕ could not repost …"); nil shows the footer instead.
    func showMessage(following text: @escaping @MainActor () -> String?)
    /// Shows what is happening ("posting…") on the status line for as long as `isTrue` says it
    /// still is (checked at every redraw), unless a message replaces it.
    func showProgress(_ text: String, while isTrue: @escaping @MainActor () -> Bool)
    /// Opens the tab showing `destination`, if the app has one.
    func openTab(_ destination: TabDestination)
    /// Asks for a redraw (interactive mode).
    func setNeedsDisplay()
    /// The size of the area screens draw in.
    var contentSize: (width: Int, height: Int) { get }
    /// The viewer just made a post: the screen shown scrolls to the newest.
    func revealNewest()
}

/// A running app that cannot show its screens, with what to fix.
package struct AppContextError: Error, Sendable, CustomStringConvertible {
    /// What is missing.
    package var message: String

    /// Makes an error.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
