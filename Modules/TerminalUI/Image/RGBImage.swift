/// A small RGB image: the pixels half-block art is drawn from.
///
/// Pixels are stored row by row, three bytes (red, green, blue) each. The layer that owns the
/// app's media converts its images to this type; TerminalUI knows nothing else about media.
///
/// ```swift
/// let image = try RGBImage(width: 2, height: 1, rgb: [255, 0, 0, 0, 0, 255])
/// image.pixel(x: 1, y: 0)  // RGBColor(red: 0, green: 0, blue: 255)
/// ```
public struct RGBImage: Hashable, Sendable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// `width * height * 3` bytes: red, green, blue of each pixel, row by row.
    public let rgb: [UInt8]

    /// Makes an image from its bytes.
    ///
    /// - Throws: `RGBImage.InvalidSize` when a side is below 1 or `rgb` does not hold exactly
    ///   `width * height * 3` bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) throws(InvalidSize) {
        guard width >= 1, height >= 1 else {
            throw InvalidSize(
                message: "image size \(width)x\(height) has an empty side; both sides must be at least 1")
        }
        let (expected, overflow) = width.multipliedReportingOverflow(by: height * 3)
        guard !overflow, rgb.count == expected else {
            throw InvalidSize(
                message:
                    "a \(width)x\(height) RGB image needs \(width)*\(height)*3 bytes, found \(rgb.count); "
                    + "pass 3 bytes (red, green, blue) per pixel, row by row")
        }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Makes an image from colors, row by row.
    ///
    /// - Throws: `RGBImage.InvalidSize` when `pixels` is empty, a row is empty, or rows differ
    ///   in length.
    public init(rows pixels: [[RGBColor]]) throws(InvalidSize) {
        let width = pixels.first?.count ?? 0
        guard let badRow = pixels.firstIndex(where: { $0.count != width }) else {
            try self.init(
                width: width, height: pixels.count,
                rgb: pixels.flatMap { $0.flatMap { [$0.red, $0.green, $0.blue] } })
            return
        }
        throw InvalidSize(
            message: "image row \(badRow) has \(pixels[badRow].count) pixels but row 0 has \(width); "
                + "every row needs the same number of pixels")
    }

    /// The color at column `x`, row `y`; coordinates are clamped into the image.
    public func pixel(x: Int, y: Int) -> RGBColor {
        let column = min(max(x, 0), width - 1)
        let row = min(max(y, 0), height - 1)
        let offset = (row * width + column) * 3
        return RGBColor(red: rgb[offset], green: rgb[offset + 1], blue: rgb[offset + 2])
    }

    /// Why bytes could not make an image.
    public struct InvalidSize: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, quoting the sizes.
        public let message: String
        /// The message.
        public var description: String { message }
    }
}
