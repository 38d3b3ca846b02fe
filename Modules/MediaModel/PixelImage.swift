/// A small RGB image: what the terminal draws as half-block color art.
///
/// Pixels are stored row by row, three bytes (red, green, blue) per pixel. Images are kept
/// small on purpose: each side is at most `maxSide` pixels.
public struct PixelImage: Hashable, Sendable {
    /// The largest width or height an image may have.
    public static let maxSide = 64

    /// Width in pixels, 1 through `maxSide`.
    public let width: Int
    /// Height in pixels, 1 through `maxSide`.
    public let height: Int
    /// `width * height * 3` bytes: red, green and blue of each pixel, row by row.
    public let rgb: [UInt8]

    /// Makes an image from its RGB bytes.
    ///
    /// - Throws: `PixelImage.InvalidSize` when a side is outside 1...`maxSide` or `rgb` does
    ///   not hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) throws(InvalidSize) {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw InvalidSize(
                message: "image size \(width)x\(height) is outside 1x1...\(Self.maxSide)x\(Self.maxSide); "
                    + "scale it down before making a PixelImage")
        }
        guard rgb.count == width * height * 3 else {
            throw InvalidSize(
                message:
                    "a \(width)x\(height) RGB image needs \(width * height * 3) bytes, found \(rgb.count)")
        }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Makes an image of one color; each side is clamped to 1...`maxSide`.
    public init(width: Int, height: Int, filledWith color: Color) {
        self.width = min(max(width, 1), Self.maxSide)
        self.height = min(max(height, 1), Self.maxSide)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(self.width * self.height * 3)
        for _ in 0..<(self.width * self.height) { bytes += [color.red, color.green, color.blue] }
        rgb = bytes
    }

    /// The color at column `x`, row `y`, or `nil` outside the image.
    public func pixel(x: Int, y: Int) -> Color? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let offset = (y * width + x) * 3
        return Color(red: rgb[offset], green: rgb[offset + 1], blue: rgb[offset + 2])
    }

    /// An RGB color.
    public struct Color: Hashable, Sendable {
        /// Red, 0...255.
        public var red: UInt8
        /// Green, 0...255.
        public var green: UInt8
        /// Blue, 0...255.
        public var blue: UInt8

        /// Makes a color from its components.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Why bytes could not make an image.
    public struct InvalidSize: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, with the offending sizes.
        public let message: String
        /// The message.
        public var description: String { message }
    }
}
