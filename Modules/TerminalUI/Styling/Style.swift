/// How a cell looks: colors and text attributes.
///
/// `nil` colors mean the terminal's default. Build styles from `.plain` with the chaining
/// helpers:
///
/// ```swift
/// let title = Style.plain.bold().withForeground(RGBColor(hex: 0xFFCC00))
/// let hint = Style.plain.dim()
/// ```
public struct Style: Hashable, Sendable {
    /// The text color, or nil for the terminal's default.
    public var foreground: RGBColor?
    /// The background color, or nil for the terminal's default.
    public var background: RGBColor?
    /// Bold (SGR 1).
    public var isBold: Bool
    /// Dim / faint (SGR 2).
    public var isDim: Bool
    /// Italic (SGR 3).
    public var isItalic: Bool
    /// Underlined (SGR 4).
    public var isUnderlined: Bool
    /// Foreground and background swapped (SGR 7).
    public var isInverse: Bool

    /// Makes a style; every part defaults to the terminal's default look.
    @inlinable
    public init(
        foreground: RGBColor? = nil, background: RGBColor? = nil, isBold: Bool = false, isDim: Bool = false,
        isItalic: Bool = false, isUnderlined: Bool = false, isInverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.isBold = isBold
        self.isDim = isDim
        self.isItalic = isItalic
        self.isUnderlined = isUnderlined
        self.isInverse = isInverse
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style, bold.
    public func bold() -> Style { with { $0.isBold = true } }
    /// This style, dim.
    public func dim() -> Style { with { $0.isDim = true } }
    /// This style, italic.
    public func italic() -> Style { with { $0.isItalic = true } }
    /// This style, underlined.
    public func underlined() -> Style { with { $0.isUnderlined = true } }
    /// This style, with foreground and background swapped.
    public func inverse() -> Style { with { $0.isInverse = true } }
    /// This style with text color `color` (nil: the terminal's default).
    public func withForeground(_ color: RGBColor?) -> Style { with { $0.foreground = color } }
    /// This style with background `color` (nil: the terminal's default).
    public func withBackground(_ color: RGBColor?) -> Style { with { $0.background = color } }

    /// This style with `overlay`'s colors where it sets them, and the attributes of both.
    ///
    /// Used to lay a highlight over content: `overlay`'s background replaces only when set.
    public func merged(with overlay: Style) -> Style {
        Style(
            foreground: overlay.foreground ?? foreground, background: overlay.background ?? background,
            isBold: isBold || overlay.isBold, isDim: isDim || overlay.isDim,
            isItalic: isItalic || overlay.isItalic, isUnderlined: isUnderlined || overlay.isUnderlined,
            isInverse: isInverse || overlay.isInverse)
    }

    private func with(_ change: (inout Style) -> Void) -> Style {
        var copy = self
        change(&copy)
        return copy
    }
}
