/// A color as the terminal receives it.
enum TerminalColor: Hashable, Sendable {
    /// 24-bit.
    case rgb(RGBColor)
    /// An xterm 256-color palette index.
    case indexed(UInt8)
}

/// A style after color downgrade for one `ColorMode`: exactly what SGR will say.
struct ResolvedStyle: Hashable, Sendable {
    var foreground: TerminalColor?
    var background: TerminalColor?
    var isBold = false
    var isDim = false
    var isItalic = false
    var isUnderlined = false
    var isInverse = false

    /// The terminal's default look (SGR 0).
    static let reset = ResolvedStyle()
}

extension Style {
    /// This style as `mode` shows it: colors kept, mapped to the palette, or dropped.
    func resolved(for mode: ColorMode) -> ResolvedStyle {
        func convert(_ color: RGBColor?) -> TerminalColor? {
            guard let color else { return nil }
            switch mode {
            case .trueColor: return .rgb(color)
            case .palette256: return .indexed(color.xterm256Index)
            case .none: return nil
            }
        }
        return ResolvedStyle(
            foreground: convert(foreground), background: convert(background), isBold: isBold, isDim: isDim,
            isItalic: isItalic, isUnderlined: isUnderlined, isInverse: isInverse)
    }
}
