import TerminalUI

/// One screen of an app: a feed, a thread, the composer. Screens are shared by the apps and
/// read everything app-specific from sockets through their `AppContext`.
///
/// A screen's keys live in one ``KeyTable``: `keyBindings` is that table as the footer and the
/// `?` help show it, and `handle(_:)` dispatches through the same table. To add a key, add a row
/// (and its command) there; the footer and the help follow.
@MainActor
package protocol AppScreen: AnyObject {
    /// The screen's title, shown in the title bar.
    var title: String { get }
    /// The screen's key table as the footer and the help show it, in order (the keys that work
    /// now: a screen in another state, such as the composer's photo picker, has other keys).
    var keyBindings: [KeyBinding] { get }
    /// What the status line shows instead of the footer for now ("loading…", a message), if
    /// anything.
    var status: String? { get }
    /// Whether printable keys are text for this screen (the composer), so they are not
    /// shortcuts.
    var capturesText: Bool { get }
    /// The screen became visible (first time or again): start loading what it shows.
    func appear()
    /// Handles a key through the screen's key table (and, while it captures text, its text
    /// field); returns false when the screen does not use it (the shell then tries).
    func handle(_ key: Key) -> Bool
    /// Takes pasted text (line breaks as "\n") into the text field that has the focus; returns
    /// false when no field has it, and the paste is then ignored (never run as keys).
    func paste(_ text: String) -> Bool
    /// Draws the screen into `rect` of `buffer`; returns the text cursor, if the screen has one.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point?
    /// The content area changed size: lay out again (off the UI actor where it is costly).
    func resize(width: Int, height: Int)
    /// Pending changes or shared facts changed: merge the data shown again.
    func dataDidChange()
    /// The viewer just made a post: show the newest first (lists select their first item).
    func revealNewest()
    /// Returns once the screen shows what the device keeps for it (a cache read off the UI
    /// actor, begun by `appear()`). A launch waits for it before its first frame, so a warm start
    /// draws the cached content at once, never the empty or loading state in between.
    func showsCachedContent() async
}

extension AppScreen {
    /// The status line: the status while there is one, else the footer of the key table.
    package var hints: String { status ?? KeyBinding.footer(of: keyBindings) }
    /// Screens that never load or report show their footer all the time.
    package var status: String? { nil }
    /// Screens without a text field treat every key as a shortcut.
    package var capturesText: Bool { false }
    /// Screens without a text field take no paste.
    package func paste(_ text: String) -> Bool { false }
    /// Screens without merged data only redraw.
    package func dataDidChange() {}
    /// Screens without a list of posts have nothing to reveal.
    package func revealNewest() {}
    /// Screens that keep nothing on the device have nothing to wait for.
    package func showsCachedContent() async {}
}
