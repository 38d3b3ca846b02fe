import Sockets

/// Relay's name, blue accent and arrow glyph.
struct RelayBranding: Branding {
    let appName = "Relay"
    let accentColor = RGBColor(hex: 0x5AA9F8)
    let logoGlyph = "»"
    let tagline = "Messages between people, in order, even offline."
}
