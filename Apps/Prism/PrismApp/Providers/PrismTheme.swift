import Sockets

/// Prism's colors: warmer grays that sit well around photos.
struct PrismTheme: Theme {
    let primaryText = RGBColor(hex: 0xF2EEE8)
    let secondaryText = RGBColor(hex: 0x9A948C)
    let separator = RGBColor(hex: 0x403B36)
    let pending = RGBColor(hex: 0xD9A441)
    let failure = RGBColor(hex: 0xE5484D)
    let like = RGBColor(hex: 0xFF4F7B)
    let background = RGBColor(hex: 0x1C1A17)
}
