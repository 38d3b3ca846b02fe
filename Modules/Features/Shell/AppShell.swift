import Composition
import Foundation
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// The frame around the screens: a title bar, a banner line, the current screen, a status line
/// and the tab bar from the `tabs` socket. It routes keys (the screen first, then the shell's
/// own: tabs, help, back, quit) and keeps one navigation stack per tab.
///
/// ```
/// ◈ <app title> · Home                      offline @ada
/// ───────────────────────────────────────────────────────
/// (the screen)
/// j/k move · enter open · l like · r reply …
/// [1 ⌂ Home]  2 + New  3 ♥ Activity  4 ☺ Profile  5 ⇅ Sync
/// ```
@MainActor
package final class AppShell: AppNavigator {
    /// What the shell does after a key.
    package enum KeyOutcome: Sendable, Equatable {
        /// Keep running.
        case handled
        /// The person asked to quit.
        case quit
        /// The person asked to suspend (Ctrl-Z): put the terminal back and stop until resumed.
        case suspend
    }

    /// Everything screens share.
    package let context: AppContext
    /// The tabs, from the `tabs` socket (at most six).
    package let tabs: [Tab]
    private let makeScreen: @MainActor (TabDestination, AppContext, Int, Int) -> any AppScreen
    private var stacks: [[any AppScreen]]
    /// The index of the active tab.
    package private(set) var activeTab = 0
    /// The screen size.
    package private(set) var width: Int
    /// The screen size.
    package private(set) var height: Int
    private var banner: (text: String, until: Date)?
    var message: String?
    /// Until when keys are not the screen's: the moment after the screen changed under them.
    var settlesUntil: Date?
    /// A message whose words follow what is true (``showMessage(following:)``), until the next
    /// key; `message` wins over it.
    var liveMessage: (@MainActor () -> String?)?
    /// What is happening, shown while its condition holds ("posting…" until the post is sent).
    private var progress: (text: String, isTrue: @MainActor () -> Bool)?
    /// Whether the `?` overlay is shown.
    var showingHelp = false {
        didSet { helpPage = 0 }
    }
    /// The page of the help shown, where it takes more than one.
    var helpPage = 0
    /// Called when something changed and the frame should be drawn again.
    package var onNeedsDisplay: (@MainActor () -> Void)?

    /// Makes the shell for a screen of `width` × `height`, building each tab's first screen
    /// with `makeScreen`.
    package init(
        context: AppContext, width: Int, height: Int,
        makeScreen: @escaping @MainActor (TabDestination, AppContext, Int, Int) -> any AppScreen
    ) {
        self.context = context
        self.width = width
        self.height = height
        self.tabs = context.tabs
        self.makeScreen = makeScreen
        self.stacks = Array(repeating: [], count: self.tabs.count)
        context.navigator = self
    }

    /// The size of the area screens draw in.
    package var contentSize: (width: Int, height: Int) { (width, max(height - 4, 1)) }

    /// A screen shown instead of the tabs until it is dismissed (onboarding).
    package private(set) var modal: (any AppScreen)?

    /// The screen on top of the active tab (or the modal screen).
    package var currentScreen: (any AppScreen)? {
        if let modal { return modal }
        guard stacks.indices.contains(activeTab) else { return nil }
        return stacks[activeTab].last
    }

    /// Shows `screen` instead of the tabs until `dismissModal()`.
    package func presentModal(_ screen: any AppScreen) {
        modal = screen
        screen.appear()
        setNeedsDisplay()
    }

    /// Hides the modal screen and shows the first tab (or, with `showingFirstTab` false, the
    /// screen it covered, as it was: an account switch the person called off). Keys typed in the
    /// next moment were typed for the screen that went away (text a person took for a field, a
    /// burst of keys after Enter): for ``settlingTime`` after it, keys are not the new screen's
    /// commands.
    package func dismissModal(showingFirstTab: Bool = true) {
        modal = nil
        settlesUntil = context.clock.now.addingTimeInterval(Self.settlingTime)
        if showingFirstTab {
            start()
        } else {
            setNeedsDisplay()
        }
    }

    /// How long after the welcome screen gives way keys are not used, in seconds: shorter than a
    /// person takes to read the new screen and press a key for it.
    package static let settlingTime: TimeInterval = 0.5

    /// Whether the current screen shows content (not a loading placeholder).
    package var showsContent: Bool {
        (currentScreen as? FeedScreen).map { !$0.items.isEmpty } ?? true
    }

    /// Shows the first tab.
    package func start() {
        openTab(at: 0)
    }

    /// Returns once the screen on top shows what the device keeps for it (see
    /// `AppScreen.showsCachedContent()`): the launch's first frame is then the cached content.
    package func showsCachedContent() async {
        await currentScreen?.showsCachedContent()
    }

    /// Drops every tab's screens and shows the first tab afresh: after signing in again, what
    /// was loaded (or failed to load) for the session that ended is not shown as the new one's.
    package func restartTabs() {
        for index in stacks.indices { stacks[index] = [] }
        start()
    }

    // MARK: AppNavigator

    package func push(_ screen: any AppScreen) {
        guard stacks.indices.contains(activeTab) else { return }
        stacks[activeTab].append(screen)
        screen.appear()
        setNeedsDisplay()
    }

    package func pop() {
        guard stacks.indices.contains(activeTab), stacks[activeTab].count > 1 else { return }
        stacks[activeTab].removeLast()
        stacks[activeTab].last?.appear()
        setNeedsDisplay()
    }

    package func showBanner(_ text: String) {
        banner = (text, context.clock.now.addingTimeInterval(4))
        setNeedsDisplay()
    }

    package func showProgress(_ text: String, while isTrue: @escaping @MainActor () -> Bool) {
        progress = (text, isTrue)
        setNeedsDisplay()
    }

    package func showMessage(_ text: String) {
        message = text
        liveMessage = nil
        setNeedsDisplay()
    }

    package func showMessage(following text: @escaping @MainActor () -> String?) {
        message = nil
        liveMessage = text
        setNeedsDisplay()
    }

    package func openTab(_ destination: TabDestination) {
        if let index = tabs.firstIndex(where: { $0.destination == destination }) { openTab(at: index) }
    }

    package func setNeedsDisplay() {
        onNeedsDisplay?()
    }

    /// The mutation manager reported changes (coalesced since the last call): the screen shown
    /// merges its posts again when `content` says what it shows may have changed, and every
    /// screen redraws (a list of the changes reads the manager when drawn).
    package func dataDidChange(content: Bool) {
        if content { currentScreen?.dataDidChange() }
        setNeedsDisplay()
    }

    package func revealNewest() {
        // Every tab's first screen too: a post written from a thread or a profile is on top of
        // Home, selected, when the person goes back to it.
        for stack in stacks { stack.first?.revealNewest() }
        currentScreen?.revealNewest()
        setNeedsDisplay()
    }

    /// Makes tab `index` active, building its first screen the first time.
    package func openTab(at index: Int) {
        guard tabs.indices.contains(index) else { return }
        activeTab = index
        if stacks[index].isEmpty {
            let size = contentSize
            stacks[index] = [makeScreen(tabs[index].destination, context, size.width, size.height)]
        }
        stacks[index].last?.appear()
        setNeedsDisplay()
    }

    /// Resizes the frame and every screen in it.
    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        let size = contentSize
        for stack in stacks {
            for screen in stack { screen.resize(width: size.width, height: size.height) }
        }
        setNeedsDisplay()
    }

    // MARK: Drawing

    /// The tab bar in at most `width` columns: every tab's number, glyph and title, the active
    /// one in brackets; the Sync tab (``TabDestination/mutations``) says how many changes failed
    /// ("✕2"), wherever the person is, and a tab a feature counts for carries its count (the
    /// inbox's unread, "✉3"). Where that is too wide, the other tabs show only their
    /// number and glyph (and the badge), so no tab is cut off (the active one keeps its title).
    func tabBar(width: Int) -> StyledLine {
        let style = context.style
        let failed = context.actions?.failedChanges.count ?? 0
        let badge = failed > 0 ? " ✕\(failed)" : ""
        func bar(short: Bool) -> StyledLine {
            var bar = StyledLine()
            for (index, tab) in tabs.enumerated() {
                let active = index == activeTab
                let label =
                    active || !short ? "\(index + 1) \(tab.glyph) \(tab.title)" : "\(index + 1) \(tab.glyph)"
                let labelStyle = active ? style.accent : style.secondary
                bar.append((active ? "[" : " ") + label, style: labelStyle)
                if tab.destination == .mutations, !badge.isEmpty { bar.append(badge, style: style.failure) }
                if let count = context.tabBadges[tab.destination] {
                    bar.append(" " + count, style: style.accent)
                }
                bar.append(active ? "]" : " ", style: labelStyle)
                bar.append(" ")
            }
            return bar
        }
        let full = bar(short: false)
        return full.displayWidth - 1 <= width ? full : bar(short: true)
    }

    /// What the title bar shows while the server cannot be reached.
    package static let offlineMarker = "offline"

    /// Whether the server cannot be reached: the last request that settled it could not reach
    /// the server (`--server` down, the network gone), or the network conditions are switched
    /// to `offline`. The next request the server answers (a refresh, a change sent, the events
    /// poll) clears it.
    package var isOffline: Bool {
        context.network.reachability.isUnreachable || context.faultControl?.faultProfile.isOffline == true
    }

    /// Draws the whole frame; returns where the text cursor goes, if a screen has one.
    package func draw(into buffer: inout ScreenBuffer) -> Point? {
        buffer.clear()
        let style = context.style
        let branding = context.registry[.branding]
        let screen = currentScreen

        // Title bar.
        var title = StyledLine(branding.logoGlyph + " " + branding.appName, style: style.accent)
        if let screen { title.append(" · " + screen.title, style: style.strong) }
        var right = StyledLine()
        if isOffline {
            right.append(Self.offlineMarker + " ", style: style.failure)
        } else if let profile = context.faultControl?.faultProfile, profile.name != "perfect" {
            right.append("[\(profile.name)] ", style: style.pending)
        }
        // Who is signed in: the viewer the server described, or, until it can be asked (an
        // offline cold start), the handle the saved credentials carry. Credentials the server
        // ended (or none) mean nobody is signed in, whoever the journal last knew.
        if let credentials = context.client.credentials, !credentials.hasEnded,
            let handle = context.viewer?.handle ?? credentials.handle
        {
            right.append("@" + handle, style: style.secondary)
        }
        buffer.putTruncated(
            title, in: Rect(x: 0, y: 0, width: max(width - right.displayWidth - 1, 1), height: 1))
        _ = buffer.put(right, x: max(width - right.displayWidth, 0), y: 0)

        // Banner or rule.
        if let banner, context.clock.now < banner.until {
            buffer.putTruncated(
                StyledLine("● " + banner.text, style: style.accent),
                in: Rect(x: 0, y: 1, width: width, height: 1))
        } else {
            banner = nil
            buffer.horizontalRule(y: 1, x: 0, length: width, style: style.separator)
        }

        // The screen.
        let content = Rect(x: 0, y: 2, width: width, height: contentSize.height)
        var cursor = screen?.draw(into: &buffer, in: content)
        if showingHelp {
            HelpOverlay.draw(
                into: &buffer, in: content, title: screen?.title ?? "", screen: screen?.keyBindings ?? [],
                shell: (modal == nil ? keys : modalKeys).bindings, page: helpPage, style: style)
            cursor = nil
        }

        // Status line and tabs.
        if let current = progress, !current.isTrue() { progress = nil }
        let status = message ?? liveMessage?() ?? progress?.text ?? screen?.hints ?? ""
        buffer.putTruncated(
            StyledLine(status, style: style.secondary), in: Rect(x: 0, y: height - 2, width: width, height: 1)
        )
        let bar = modal == nil ? tabBar(width: width) : StyledLine()
        buffer.putTruncated(bar, in: Rect(x: 0, y: height - 1, width: width, height: 1))
        return cursor
    }
}
