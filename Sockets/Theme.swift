import Composition

/// The colors screens draw with (the accent comes from `Branding`).
public protocol Theme: Sendable {
    /// Ordinary text.
    var primaryText: RGBColor { get }
    /// Handles, times, counts.
    var secondaryText: RGBColor { get }
    /// Separators and threadlines.
    var separator: RGBColor { get }
    /// Entries waiting for the server.
    var pending: RGBColor { get }
    /// Entries the server refused.
    var failure: RGBColor { get }
    /// A liked heart.
    var like: RGBColor { get }
    /// The background the screens are drawn on: the terminal's, as the app assumes it. The
    /// transparent parts of a photo (a PNG's alpha) are drawn over it.
    var background: RGBColor { get }
}

/// The theme an app gets when its manifest leaves `theme` unbound.
public struct StandardTheme: Theme {
    /// Light grey, for text on a dark terminal.
    public let primaryText = RGBColor(hex: 0xE6E6E6)
    /// Mid grey, for names, times and hints.
    public let secondaryText = RGBColor(hex: 0x8A8F98)
    /// Dark grey, for rules between posts.
    public let separator = RGBColor(hex: 0x3A3F47)
    /// Amber, for changes not yet confirmed.
    public let pending = RGBColor(hex: 0xC9A227)
    /// Red, for refused changes and errors.
    public let failure = RGBColor(hex: 0xE5484D)
    /// Coral, for a liked heart.
    public let like = RGBColor(hex: 0xF2555A)
    /// Near black, a dark terminal's background.
    public let background = RGBColor(hex: 0x16181C)

    /// Makes the standard theme.
    public init() {}
}

@usableFromInline let themeSocket = Socket<any Theme>.optional(
    "theme", summary: "the colors screens draw with", default: { StandardTheme() })

extension Socket where Contract == any Theme {
    /// The colors screens draw with. Optional: defaults to `StandardTheme`.
    @inlinable public static var theme: Socket<any Theme> { themeSocket }
}
