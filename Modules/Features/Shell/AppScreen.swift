import TerminalUI

/// One screen of an app: a feed, a thread, the composer. Screens are shared by both apps and
/// read everything app-specific from sockets through their `AppContext`.
@MainActor
package protocol AppScreen: AnyObject {
    /// The screen's title, shown in the title bar.
    var title: String { get }
    /// The keys this screen offers, shown on the status line.
    var hints: String { get }
    /// Whether printable keys are text for this screen (the composer), so they are not
    /// shortcuts.
    var capturesText: Bool { get }
    /// The screen became visible (first time or again): start loading what it shows.
    func appear()
    /// Handles a key; returns false when the screen does not use it (the shell then tries).
    func handle(_ key: Key) -> Bool
    /// Draws the screen into `rect` of `buffer`; returns the text cursor, if the screen has one.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point?
    /// The content area changed size: lay out again (off the UI actor where it is costly).
    func resize(width: Int, height: Int)
    /// Pending changes or shared facts changed: merge the data shown again.
    func dataDidChange()
    /// The viewer just made a post: show the newest first (lists select their first item).
    func revealNewest()
}

extension AppScreen {
    package var capturesText: Bool { false }
    /// Screens without merged data only redraw.
    package func dataDidChange() {}
    /// Screens without a list of posts have nothing to reveal.
    package func revealNewest() {}
}
