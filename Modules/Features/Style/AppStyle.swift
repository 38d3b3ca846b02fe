import Sockets
import TerminalUI

/// The styles every screen draws with, made once from the app's `branding` and `theme`
/// sockets: shared code asks the sockets for colors and never knows which app it is.
package struct AppStyle: Sendable, Hashable {
    /// The app's accent (its logo, the active tab, links).
    package var accent: Style
    /// Ordinary text.
    package var text: Style
    /// Names and other emphasized text.
    package var strong: Style
    /// Handles, ages, counts.
    package var secondary: Style
    /// Separators and threadlines.
    package var separator: Style
    /// Entries waiting for the server.
    package var pending: Style
    /// Entries the server refused, and errors.
    package var failure: Style
    /// A liked heart.
    package var like: Style
    /// How much color the terminal gets.
    package var colorMode: ColorMode
    /// How photos are drawn: the kitty graphics protocol, half blocks, or characters.
    package var imageMode: ImageMode
    /// The theme's background, which the transparent parts of photos are drawn over.
    package var background: TerminalUI.RGBColor

    /// The styles of an app's branding and theme, for a terminal in `colorMode` drawing photos
    /// in `imageMode`.
    package init(branding: any Branding, theme: any Theme, colorMode: ColorMode, imageMode: ImageMode) {
        accent = Style(foreground: branding.accentColor.terminalColor).bold()
        text = Style(foreground: theme.primaryText.terminalColor)
        strong = Style(foreground: theme.primaryText.terminalColor).bold()
        secondary = Style(foreground: theme.secondaryText.terminalColor)
        separator = Style(foreground: theme.separator.terminalColor)
        pending = Style(foreground: theme.pending.terminalColor)
        failure = Style(foreground: theme.failure.terminalColor).bold()
        like = Style(foreground: theme.like.terminalColor)
        self.colorMode = colorMode
        self.imageMode = imageMode
        background = theme.background.terminalColor
    }
}

extension Sockets.RGBColor {
    /// The same color as the terminal draws it.
    var terminalColor: TerminalUI.RGBColor {
        TerminalUI.RGBColor(red: red, green: green, blue: blue)
    }
}
