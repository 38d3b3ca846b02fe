import MediaModel

/// A decoded image of any size within ``ImageLimits``: RGB, 8 bits a channel, row by row.
///
/// Unlike `PixelImage` (at most 64 pixels a side, what the terminal draws and the wire carries),
/// a raster holds a photo at its real size. ``scaled(toWidth:height:)`` and
/// ``pixelImage(maxSide:)`` bring it down to what is shown.
public struct Raster: Hashable, Sendable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// `width * height * 3` bytes: red, green and blue of each pixel, row by row.
    public let rgb: [UInt8]

    /// Makes a raster from its RGB bytes.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when a side is below 1 or `rgb` does not hold
    ///   exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) throws(ImageError) {
        guard width >= 1, height >= 1, let count = Self.byteCount(width: width, height: height),
            rgb.count == count
        else {
            throw ImageError(
                .invalidArgument,
                "a \(width)x\(height) RGB raster needs width * height * 3 bytes and sides of at least 1; "
                    + "found \(rgb.count) bytes")
        }
        self.init(unchecked: width, height: height, rgb: rgb)
    }

    /// Makes a raster of one color.
    public init(width: Int, height: Int, filledWith color: PixelImage.Color) throws(ImageError) {
        guard width >= 1, height >= 1, let count = Self.byteCount(width: width, height: height) else {
            throw ImageError(.invalidArgument, "a raster of \(width)x\(height) pixels cannot be made")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        for offset in stride(from: 0, to: count, by: 3) {
            bytes[offset] = color.red
            bytes[offset + 1] = color.green
            bytes[offset + 2] = color.blue
        }
        self.init(unchecked: width, height: height, rgb: bytes)
    }

    /// Makes a raster whose size and byte count the caller has already checked.
    init(unchecked width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// `width * height * 3`, or `nil` when it overflows.
    static func byteCount(width: Int, height: Int) -> Int? {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow3) = pixels.multipliedReportingOverflow(by: 3)
        return overflow || overflow3 ? nil : bytes
    }

    /// The color at column `x`, row `y`, or `nil` outside the raster.
    public func pixel(x: Int, y: Int) -> PixelImage.Color? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let offset = (y * width + x) * 3
        return PixelImage.Color(red: rgb[offset], green: rgb[offset + 1], blue: rgb[offset + 2])
    }
}
