import Sockets

/// Strand's name, green accent and thread glyph.
struct StrandBranding: Branding {
    let appName = "Strand"
    let accentColor = RGBColor(hex: 0x3DDC97)
    let logoGlyph = "@"
    let tagline = "Say it in words. Follow the thread."
}
