import MediaModel

/// A decoded image that keeps its transparency: its colors as stored (not composited over
/// anything) and an alpha plane, 0 transparent to 255 opaque.
///
/// A PNG with an alpha channel or a tRNS chunk decodes to one with
/// ``ImageDecoder/decodeKeepingTransparency(_:)``; the backend resizes it and stores its variants
/// as RGBA PNG files (``ImageEncoder``'s `png(_:)` for a transparent raster), so the app can draw it over
/// its own theme's background (``composited(over:)``), which the server cannot know.
public struct TransparentRaster: Hashable, Sendable {
    /// The colors, RGB, as stored (a fully transparent pixel's color means nothing).
    public let color: Raster
    /// `width * height` bytes, row by row.
    public let alpha: [UInt8]

    /// Width in pixels.
    public var width: Int { color.width }
    /// Height in pixels.
    public var height: Int { color.height }

    /// Makes one from its colors and alpha plane.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when `alpha` does not hold one byte per pixel.
    public init(color: Raster, alpha: [UInt8]) throws(ImageError) {
        guard alpha.count == color.width * color.height else {
            throw ImageError(
                .invalidArgument,
                "a \(color.width)x\(color.height) image needs \(color.width * color.height) alpha bytes; found \(alpha.count)"
            )
        }
        self.color = color
        self.alpha = alpha
    }

    /// Makes one from interleaved RGBA bytes whose size the caller has checked.
    init(width: Int, height: Int, rgba: [UInt8]) {
        let pixels = width * height
        var rgb = [UInt8](repeating: 0, count: pixels * 3)
        var alpha = [UInt8](repeating: 0, count: pixels)
        for pixel in 0..<pixels {
            rgb[pixel * 3] = rgba[pixel * 4]
            rgb[pixel * 3 + 1] = rgba[pixel * 4 + 1]
            rgb[pixel * 3 + 2] = rgba[pixel * 4 + 2]
            alpha[pixel] = rgba[pixel * 4 + 3]
        }
        self.color = Raster(unchecked: width, height: height, rgb: rgb)
        self.alpha = alpha
    }

    /// The interleaved RGBA bytes.
    var rgba: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: alpha.count * 4)
        for pixel in 0..<alpha.count {
            bytes[pixel * 4] = color.rgb[pixel * 3]
            bytes[pixel * 4 + 1] = color.rgb[pixel * 3 + 1]
            bytes[pixel * 4 + 2] = color.rgb[pixel * 3 + 2]
            bytes[pixel * 4 + 3] = alpha[pixel]
        }
        return bytes
    }

    /// The image drawn over `background`: each channel blended by its alpha in the stored (sRGB)
    /// values, rounding to nearest, as a PNG decoder composites (the same bytes
    /// ``ImageDecoder`` gives for the file with that background).
    public func composited(over background: PixelImage.Color) -> Raster {
        let under = [background.red, background.green, background.blue]
        var rgb = color.rgb
        for pixel in 0..<alpha.count {
            let opacity = UInt32(alpha[pixel])
            for channel in 0..<3 {
                let sum =
                    UInt32(rgb[pixel * 3 + channel]) * opacity + UInt32(under[channel]) * (255 - opacity)
                rgb[pixel * 3 + channel] = UInt8((sum + 127) / 255)
            }
        }
        return Raster(unchecked: width, height: height, rgb: rgb)
    }

    /// The image resampled to exactly `width` x `height` with the area filter of
    /// ``Raster/scaled(toWidth:height:)``, its colors weighted by their alpha (premultiplied, in
    /// linear light), so a transparent pixel's meaningless color never bleeds into its
    /// neighbours; the alpha is averaged as it is.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when a side is below 1.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) throws(ImageError) -> TransparentRaster {
        guard newWidth >= 1, newHeight >= 1, Raster.byteCount(width: newWidth, height: newHeight) != nil
        else {
            throw ImageError(
                .invalidArgument, "cannot scale to \(newWidth)x\(newHeight); each side must be at least 1")
        }
        if newWidth == width && newHeight == height { return self }
        let columns = BoxWeights(source: width, target: newWidth)
        let rows = BoxWeights(source: height, target: newHeight)
        let linear = SRGB.toLinear
        // One source row narrowed to the new width: premultiplied linear red, green, blue, alpha.
        func narrowed(_ row: Int) -> [Float] {
            var out = [Float](repeating: 0, count: newWidth * 4)
            for x in 0..<newWidth {
                for (column, weight) in columns.span(x) {
                    let pixel = row * width + column
                    let opacity = Float(alpha[pixel]) / 255
                    out[x * 4] += weight * opacity * linear[Int(color.rgb[pixel * 3])]
                    out[x * 4 + 1] += weight * opacity * linear[Int(color.rgb[pixel * 3 + 1])]
                    out[x * 4 + 2] += weight * opacity * linear[Int(color.rgb[pixel * 3 + 2])]
                    out[x * 4 + 3] += weight * opacity
                }
            }
            return out
        }
        var rgb = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        var newAlpha = [UInt8](repeating: 0, count: newWidth * newHeight)
        SRGB.midpoints.withUnsafeBufferPointer { midpoints in
            for y in 0..<newHeight {
                var sums = [Float](repeating: 0, count: newWidth * 4)
                for (row, weight) in rows.span(y) {
                    let narrow = narrowed(row)
                    for i in 0..<sums.count { sums[i] += weight * narrow[i] }
                }
                for x in 0..<newWidth {
                    let opacity = sums[x * 4 + 3]
                    let pixel = y * newWidth + x
                    newAlpha[pixel] = UInt8((min(max(opacity, 0), 1) * 255).rounded())
                    guard opacity > 0 else { continue }
                    for channel in 0..<3 {
                        rgb[pixel * 3 + channel] = SRGB.code(sums[x * 4 + channel] / opacity, midpoints)
                    }
                }
            }
        }
        return TransparentRaster(
            unchecked: Raster(unchecked: newWidth, height: newHeight, rgb: rgb), alpha: newAlpha)
    }

    private init(unchecked color: Raster, alpha: [UInt8]) {
        self.color = color
        self.alpha = alpha
    }
}
