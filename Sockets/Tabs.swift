import Composition

/// A screen a tab opens.
public enum TabDestination: String, Sendable, Hashable, CaseIterable {
    /// The home feed.
    case home
    /// Events for the viewer: replies, likes, follows, mentions.
    case activity
    /// The composer for a new post.
    case compose
    /// The viewer's profile.
    case profile
    /// Pending and failed changes, and the attempt log.
    case mutations
    /// The inbox of direct messages (the app must fill the `direct` socket).
    case direct
}

/// One tab in the tab bar.
public struct Tab: Sendable, Hashable {
    /// The tab's title.
    public var title: String
    /// The screen it opens.
    public var destination: TabDestination
    /// A glyph drawn before the title.
    public var glyph: String

    /// Makes a tab.
    public init(title: String, destination: TabDestination, glyph: String) {
        self.title = title
        self.destination = destination
        self.glyph = glyph
    }
}

/// The app's tabs, in order (the keys 1 to 6 select them).
public protocol Tabs: Sendable {
    /// The tabs, first to last. At most six.
    var tabs: [Tab] { get }
}

@usableFromInline let tabsSocket = Socket<any Tabs>.required(
    "tabs", summary: "the tabs of the tab bar and their order")

extension Socket where Contract == any Tabs {
    /// The tab bar. Required.
    @inlinable public static var tabs: Socket<any Tabs> { tabsSocket }
}
