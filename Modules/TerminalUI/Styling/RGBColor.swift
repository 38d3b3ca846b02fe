/// A 24-bit color: red, green and blue, each 0...255.
///
/// Styles hold colors as RGB; the frame differ turns them into what the terminal supports
/// (see `ColorMode`): 24-bit sequences, the nearest xterm 256-color index, or nothing.
///
/// ```swift
/// let accent = RGBColor(red: 255, green: 102, blue: 0)
/// let same = RGBColor(hex: 0xFF6600)
/// ```
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// Makes a color from its components.
    @inlinable
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Makes a color from `0xRRGGBB`; bits above the lowest 24 are ignored.
    @inlinable
    public init(hex: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: hex >> 16), green: UInt8(truncatingIfNeeded: hex >> 8),
            blue: UInt8(truncatingIfNeeded: hex))
    }

    /// Relative luminance in 0...255 (Rec. 709 weights on the stored, gamma-encoded values).
    public var luminance: Int {
        (2126 * Int(red) + 7152 * Int(green) + 722 * Int(blue) + 5000) / 10000
    }

    /// `#RRGGBB`.
    public var description: String {
        let digits = String(UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue), radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
