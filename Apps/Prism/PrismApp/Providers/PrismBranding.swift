import Sockets

/// Prism's name, violet accent and prism glyph.
struct PrismBranding: Branding {
    let appName = "Prism"
    let accentColor = RGBColor(hex: 0xB06CFF)
    let logoGlyph = "◈"
    let tagline = "Photos first. Words second."
}
