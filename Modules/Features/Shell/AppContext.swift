import Backend
import Composition
import Foundation
import MediaModel
import Networking
import Sockets
import TerminalUI
import Wire

/// What screens share while the app runs: its sockets, its services, the clock, the tracker of
/// outstanding work, the signed-in viewer, and the way to navigate and show banners.
@MainActor
public final class AppContext {
    /// The running app (its services and trace).
    public let app: RunningApp
    /// How posts look.
    public let presentation: PostPresentation
    /// The API client and the media store.
    public let network: NetworkClientService
    /// The home feed cache.
    public let feedCache: FeedCache
    /// The app's clock (a manual one in headless runs).
    public let clock: any WallClock
    /// Outstanding work, for headless `wait`.
    public let tracker: WorkTracker
    /// The signed-in account, once known.
    public var viewer: User?
    /// Shows screens, banners and messages.
    public weak var navigator: (any AppNavigator)?
    /// Carries out the viewer's changes (through the mutation manager).
    public var actions: (any ViewerActions)?
    /// The mutation manager, when the manifest enables `mutations.replay`: screens show server
    /// data merged with its pending changes.
    public var mutations: MutationManager?

    /// Makes a context for a running app.
    public init(app: RunningApp, colorMode: ColorMode, clock: any WallClock, tracker: WorkTracker)
        throws(AppContextError)
    {
        guard let network = app.service(.networkClient) else {
            throw AppContextError("the manifest does not enable 'network.client'; every screen needs it")
        }
        guard let service = app.service(.feedCache), let cache = try? service.cache else {
            throw AppContextError("the manifest does not enable 'feed.cache'; the home feed needs it")
        }
        self.app = app
        self.network = network
        self.feedCache = cache
        self.presentation = PostPresentation(registry: app.registry, colorMode: colorMode)
        self.clock = clock
        self.tracker = tracker
    }

    /// The app's sockets.
    public var registry: SocketRegistry { app.registry }
    /// The client, signed in as the viewer.
    public var client: APIClient { network.client }
    /// The single source of truth for shared facts.
    public var mediaStore: MediaStore { network.mediaStore }
    /// The styles.
    public var style: AppStyle { presentation.style }

    /// The network conditions switch, when the transport has one.
    public var faultControl: (any FaultControl)? {
        if let http = app.service(.httpBackend), http.transport != nil { return http.faultControl }
        return app.service(.embeddedBackend)?.embeddedTransport
    }

    /// Hooks that run when the network conditions change (the mutation manager resets its
    /// backoff there).
    public var networkChangeHandlers: [@MainActor () -> Void] = []

    /// The network conditions changed.
    public func networkDidChange() {
        for handler in networkChangeHandlers { handler() }
    }

    /// The age of `date` on the app's clock.
    public func age(of date: Date) -> String {
        AgeFormatter.age(of: date, now: clock.now)
    }

    /// The facts to show for a post: the store's, else what came with it.
    public func facts(for media: Media) -> MediaFacts {
        mediaStore.facts(for: media.id)
            ?? MediaFacts(likeCount: 0, viewerLiked: false, replyCount: 0, repostCount: 0)
    }
}

/// What screens ask of the shell.
@MainActor
public protocol AppNavigator: AnyObject {
    /// Shows a screen on top of the current one.
    func push(_ screen: any AppScreen)
    /// Goes back one screen.
    func pop()
    /// Shows a banner line for a few seconds (push events, confirmations).
    func showBanner(_ text: String)
    /// Shows a message on the status line until the next key.
    func showMessage(_ text: String)
    /// Opens the tab showing `destination`, if the app has one.
    func openTab(_ destination: TabDestination)
    /// Asks for a redraw (interactive mode).
    func setNeedsDisplay()
    /// Pending changes or shared facts changed: the screen shown should merge its data again.
    func dataDidChange()
    /// The viewer just made a post: the screen shown scrolls to the newest.
    func revealNewest()
}

/// A running app that cannot show its screens, with what to fix.
public struct AppContextError: Error, Sendable, CustomStringConvertible {
    /// What is missing.
    public var message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
