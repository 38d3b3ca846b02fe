import CImageCodecs
import MediaModel

/// The Swift side of the C layer's PNG calls, and the IHDR read before them.
enum PNGCodec {
    /// The image size in a PNG file's IHDR chunk (which must come first), read without libpng
    /// so the limits are checked before libpng allocates anything.
    static func size(_ bytes: [UInt8]) throws(ImageError) -> (width: Int, height: Int) {
        // Signature (8), IHDR length (4) and type (4), width (4), height (4).
        guard bytes.count >= 24 else { throw ImageError(.truncated, "PNG file ends early (truncated)") }
        guard bytes[12..<16].elementsEqual([0x49, 0x48, 0x44, 0x52]) else {
            throw ImageError(
                .corrupt, "PNG file does not start with its IHDR chunk (the header); it is damaged")
        }
        func u32(_ at: Int) -> Int {
            bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = u32(16)
        let height = u32(20)
        guard width >= 1, height >= 1, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageError(
                .corrupt, "PNG header gives an impossible size (\(width)x\(height)); it is damaged")
        }
        return (width, height)
    }

    static func decode(
        _ bytes: [UInt8], width: Int, height: Int, limits: ImageLimits, background: PixelImage.Color
    ) throws(ImageError) -> Raster {
        let count = width * height * 3
        var status = cic_status()
        let rgb = bytes.withUnsafeBufferPointer { data in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                _ = cic_png_decode(
                    data.baseAddress, data.count, UInt32(width), UInt32(height),
                    UInt32(min(limits.maxSide, 0x7FFF_FFFF)),
                    background.red, background.green, background.blue, 0, buffer.baseAddress, count, &status)
                initialized = status.code == Int32(CIC_OK.rawValue) ? count : 0
            }
        }
        try check(status)
        return Raster(unchecked: width, height: height, rgb: rgb)
    }

    /// Decodes a PNG keeping its transparency (RGBA); the caller has checked the size.
    static func decodeRGBA(_ bytes: [UInt8], width: Int, height: Int, limits: ImageLimits) throws(ImageError)
        -> TransparentRaster
    {
        let count = width * height * 4
        var status = cic_status()
        let rgba = bytes.withUnsafeBufferPointer { data in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                _ = cic_png_decode(
                    data.baseAddress, data.count, UInt32(width), UInt32(height),
                    UInt32(min(limits.maxSide, 0x7FFF_FFFF)), 0, 0, 0, 1, buffer.baseAddress, count, &status)
                initialized = status.code == Int32(CIC_OK.rawValue) ? count : 0
            }
        }
        try check(status)
        return TransparentRaster(width: width, height: height, rgba: rgba)
    }

    /// Whether the file has transparency (an alpha channel or a tRNS chunk), from the chunks
    /// before its image data.
    static func hasTransparency(_ bytes: [UInt8]) throws(ImageError) -> Bool {
        var status = cic_status()
        let answer = bytes.withUnsafeBufferPointer { cic_png_has_alpha($0.baseAddress, $0.count, &status) }
        try check(status)
        return answer == 1
    }

    static func encode(_ raster: Raster) throws(ImageError) -> [UInt8] {
        try encode(raster.rgb, width: raster.width, height: raster.height, components: 3)
    }

    static func encode(_ image: TransparentRaster) throws(ImageError) -> [UInt8] {
        try encode(image.rgba, width: image.width, height: image.height, components: 4)
    }

    private static func encode(_ pixels: [UInt8], width: Int, height: Int, components: Int32)
        throws(ImageError)
        -> [UInt8]
    {
        var status = cic_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        pixels.withUnsafeBufferPointer { data in
            _ = cic_png_encode(
                data.baseAddress, data.count, UInt32(width), UInt32(height), components, &output, &size,
                &status)
        }
        defer { cic_free(output) }
        try check(status)
        guard let output else { throw ImageError(.invalidArgument, "the PNG encoder returned no data") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    static func check(_ status: cic_status) throws(ImageError) {
        let message = CodecStatus.message(status)
        switch UInt32(status.code) {
        case CIC_OK.rawValue: return
        case CIC_ERROR_TRUNCATED.rawValue: throw ImageError(.truncated, "PNG file ends early (truncated)")
        case CIC_ERROR_MEMORY_LIMIT.rawValue: throw ImageError(.memoryLimit, "PNG codec: \(message)")
        case CIC_ERROR_ARGUMENT.rawValue: throw ImageError(.invalidArgument, "PNG codec: \(message)")
        default: throw ImageError(.corrupt, "PNG data is damaged (libpng: \(message))")
        }
    }
}
