import CImageCodecs
import Imaging
import MediaModel

/// Images the tests decode, made in the test run.
enum Fixtures {
    static let red = PixelImage.Color(red: 230, green: 20, blue: 20)
    static let green = PixelImage.Color(red: 20, green: 210, blue: 40)
    static let blue = PixelImage.Color(red: 20, green: 40, blue: 220)
    static let white = PixelImage.Color(red: 250, green: 250, blue: 250)

    /// A raster in four flat quadrants: red top left, green top right, blue bottom left, white
    /// bottom right.
    static func quadrants(width: Int, height: Int) throws -> Raster {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let color =
                    y < height / 2 ? (x < width / 2 ? red : green) : (x < width / 2 ? blue : white)
                bytes += [color.red, color.green, color.blue]
            }
        }
        return try Raster(width: width, height: height, rgb: bytes)
    }

    /// The gradient's color at (x, y) of a `width` x `height` image: red rises left to right,
    /// green top to bottom, blue is constant.
    static func gradient(x: Int, y: Int, width: Int, height: Int) -> PixelImage.Color {
        PixelImage.Color(red: UInt8(x * 255 / (width - 1)), green: UInt8(y * 255 / (height - 1)), blue: 96)
    }

    static func gradient(width: Int, height: Int) throws -> Raster {
        let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            let reds = (0..<width).map { UInt8($0 * 255 / (width - 1)) }
            var offset = 0
            for y in 0..<height {
                let green = UInt8(y * 255 / (height - 1))
                for x in 0..<width {
                    buffer[offset] = reds[x]
                    buffer[offset + 1] = green
                    buffer[offset + 2] = 96
                    offset += 3
                }
            }
            count = offset
        }
        return try Raster(width: width, height: height, rgb: rgb)
    }

    /// A 12-megapixel gradient photo, baseline and progressive (made once per run).
    static let largeBaseline: Result<[UInt8], any Error> = Result {
        try ImageEncoder.jpeg(gradient(width: 4000, height: 3000), quality: 85)
    }
    static let largeProgressive: Result<[UInt8], any Error> = Result {
        try ImageEncoder.jpeg(gradient(width: 4000, height: 3000), quality: 85, progressive: true)
    }

    /// A JPEG with an Exif APP1 segment giving `orientation` spliced in right after SOI, in
    /// little-endian (`II`) or big-endian (`MM`) TIFF byte order.
    static func withExif(_ jpeg: [UInt8], orientation: Int, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] {
            littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF)
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8)  // IFD0 right after the header
        tiff += u16(2)  // two entries: an unrelated one first, then Orientation
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x43, 0x4D, 0x00]  // Make: "ACM"
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// The offset of the first byte of entropy-coded data (after the SOS segment).
    static func scanStart(_ jpeg: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if marker == 0xDA { return offset + 2 + length }
            offset += 2 + length
        }
        return nil
    }

    /// A JPEG's bytes with the SOF0 frame's size replaced.
    static func withFrameSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        var offset = 2
        while offset + 9 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[offset + 5] = UInt8(height >> 8)
                bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8)
                bytes[offset + 8] = UInt8(width & 0xFF)
                return bytes
            }
            offset += 2 + length
        }
        return bytes
    }

    /// A CMYK JPEG (Imaging's encoder makes RGB and gray only; this goes to the C layer).
    static func cmykJPEG(width: Int, height: Int) throws -> [UInt8] {
        let pixels = [UInt8](repeating: 40, count: width * height * 4)
        var status = cic_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        _ = pixels.withUnsafeBufferPointer { data in
            cic_jpeg_encode(
                data.baseAddress, data.count, UInt32(width), UInt32(height), 4, 90, 0, 0, &output, &size,
                &status)
        }
        defer { cic_free(output) }
        guard status.code == 0, let output else { throw ImageError(.invalidArgument, "CMYK encode failed") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Whether two colors differ by at most `tolerance` in every channel.
    static func close(_ a: PixelImage.Color?, _ b: PixelImage.Color, _ tolerance: Int) -> Bool {
        guard let a else { return false }
        return abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }
}
