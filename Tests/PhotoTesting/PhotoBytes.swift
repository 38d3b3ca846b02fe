import Foundation
import Imaging
import MediaModel

/// The bytes of photo files the tests make in the run: real JPEG and PNG files encoded with
/// Imaging, and broken ones (cut short, not an image, a PNG whose header claims 30,000 x 30,000).
/// (AppTesting's `TestPhotos` writes photo files for the apps' picker.)
public enum PhotoBytes {
    /// A `width` x `height` gradient: red rises left to right, green top to bottom, blue fixed.
    public static func gradient(width: Int, height: Int, blue: UInt8 = 96) throws -> Raster {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let green = UInt8(y * 255 / max(height - 1, 1))
            for x in 0..<width { rgb += [UInt8(x * 255 / max(width - 1, 1)), green, blue] }
        }
        return try Raster(width: width, height: height, rgb: rgb)
    }

    /// A `width` x `height` picture of `stripes` vertical stripes, alternately dark and light,
    /// over a gradient: detail a 64-pixel rendition cannot hold, so art drawn from the real
    /// pixels (at a width near `stripes`) looks plainly unlike art drawn from the rendition.
    public static func stripes(width: Int, height: Int, stripes: Int) throws -> Raster {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let green = UInt8(40 + y * 150 / max(height - 1, 1))
            for x in 0..<width {
                let light = (x * stripes / width) % 2 == 1
                rgb += light ? [250, green, 230] : [10, green / 3, 20]
            }
        }
        return try Raster(width: width, height: height, rgb: rgb)
    }

    /// A striped JPEG file (``stripes(width:height:stripes:)``), encoded at high quality.
    public static func stripedJPEG(width: Int, height: Int, stripes: Int) throws -> [UInt8] {
        try ImageEncoder.jpeg(Self.stripes(width: width, height: height, stripes: stripes), quality: 95)
    }

    /// A gradient JPEG file.
    public static func jpeg(width: Int, height: Int, blue: UInt8 = 96) throws -> [UInt8] {
        try ImageEncoder.jpeg(gradient(width: width, height: height, blue: blue))
    }

    /// A gradient JPEG file made `bytes` long (at least the plain file's size) with comment
    /// segments after its start marker: a real photo's file size without encoding its pixels.
    public static func jpeg(width: Int, height: Int, paddedTo bytes: Int) throws -> [UInt8] {
        let plain = try jpeg(width: width, height: height)
        var padding: [UInt8] = []
        var left = bytes - plain.count
        while left > 4 {
            // A COM segment: FF FE, then a big-endian length that counts itself.
            let length = min(left - 2, 65_535)
            padding += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
            padding += [UInt8](repeating: 0x20, count: length - 2)
            left -= length + 2
        }
        return Array(plain.prefix(2)) + padding + plain.dropFirst(2)
    }

    /// An RGBA PNG `width` x `height`: its left half fully transparent (stored as green, a
    /// color that must never show), its right half opaque red.
    public static func pngWithTransparency(width: Int, height: Int) throws -> [UInt8] {
        try ImageEncoder.png(halfTransparent(width: width, height: height))
    }

    /// The image of ``pngWithTransparency(width:height:)``.
    public static func halfTransparent(width: Int, height: Int) throws -> TransparentRaster {
        var rgb: [UInt8] = []
        var alpha: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let opaque = x >= width / 2
                rgb += opaque ? [255, 0, 0] : [0, 255, 0]
                alpha.append(opaque ? 255 : 0)
            }
        }
        return try TransparentRaster(color: Raster(width: width, height: height, rgb: rgb), alpha: alpha)
    }

    /// A gradient PNG file.
    public static func png(width: Int, height: Int, blue: UInt8 = 96) throws -> [UInt8] {
        try ImageEncoder.png(gradient(width: width, height: height, blue: blue))
    }

    /// A PNG whose header claims `width` x `height` (its CRC fixed, so only the size is wrong),
    /// over a few bytes of image data: a decompression bomb's shape.
    public static func pngClaiming(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try png(width: 4, height: 4)
        // Signature (8), IHDR length (4), "IHDR" (4), then width and height, big-endian.
        for (offset, value) in [(16, width), (20, height)] {
            for index in 0..<4 {
                bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index))
            }
        }
        let crc = crc32(bytes[12..<29])
        for index in 0..<4 { bytes[29 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return bytes
    }

    /// Writes `bytes` to `name` in `directory`, or in a new folder under this process's
    /// temporary root (removed when the process exits), and returns the file's path.
    public static func write(_ bytes: [UInt8], named name: String, in directory: String? = nil) throws
        -> String
    {
        let folder = directory ?? (root + "/" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// This process's folder for photo files, removed when it exits.
    private static let root: String = {
        atexit { try? FileManager.default.removeItem(atPath: PhotoBytes.rootPath) }
        return rootPath
    }()

    private static var rootPath: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loom-photo-bytes-\(getpid())").path
    }

    /// The files in `directory` (none when it does not exist), sorted.
    public static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
