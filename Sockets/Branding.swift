import Composition

/// How an app presents itself: its name, its accent color and the glyph it uses as a logo.
public protocol Branding: Sendable {
    /// The app's name as people see it.
    var appName: String { get }
    /// The color of the app's highlights (selection, the logo, active tab).
    var accentColor: RGBColor { get }
    /// A single glyph drawn as the app's logo in the title bar.
    var logoGlyph: String { get }
    /// A short line shown under the name on the welcome screen.
    var tagline: String { get }
}

/// A color as red, green and blue components.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    /// The red component.
    public var red: UInt8
    /// The green component.
    public var green: UInt8
    /// The blue component.
    public var blue: UInt8

    /// Makes a color from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Makes a color from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    /// `#rrggbb`.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

@usableFromInline let brandingSocket = Socket<any Branding>.required(
    "branding", summary: "the app's name, accent color and logo glyph")

extension Socket where Contract == any Branding {
    /// The app's name, accent color and logo glyph. Required.
    @inlinable public static var branding: Socket<any Branding> { brandingSocket }
}
