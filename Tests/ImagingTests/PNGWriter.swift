/// Writes PNG files by hand (chunks, CRC-32, zlib with stored or run-length blocks), so the
/// decoder is tested against files made without libpng: every colour type and bit depth,
/// interlaced or not, with PLTE and tRNS, and deliberately malformed ones.
struct PNGWriter {
    enum ColorType: UInt8 {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        var channels: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    var interlaced = false
    /// PLTE entries (red, green, blue).
    var palette: [[UInt8]] = []
    /// The tRNS chunk's data, if any.
    var transparency: [UInt8]?

    /// The file, with each pixel's samples (at `bitDepth`) from `samples(x, y)`.
    func file(samples: (Int, Int) -> [Int]) -> [UInt8] {
        file(idat: Deflate.stored(scanlines(samples: samples)))
    }

    /// The file around a ready-made zlib stream.
    func file(idat: [UInt8], declaredWidth: Int? = nil, declaredHeight: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = Self.u32(declaredWidth ?? width) + Self.u32(declaredHeight ?? height)
        header += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        bytes += Self.chunk("IHDR", header)
        if !palette.isEmpty { bytes += Self.chunk("PLTE", palette.flatMap { $0 }) }
        if let transparency { bytes += Self.chunk("tRNS", transparency) }
        bytes += Self.chunk("IDAT", idat)
        bytes += Self.chunk("IEND", [])
        return bytes
    }

    /// The filtered (filter 0) scanlines of every pass, as the zlib stream must inflate to.
    func scanlines(samples: (Int, Int) -> [Int]) -> [UInt8] {
        // Adam7: (first column, first row, column step, row step) of each pass.
        let passes =
            interlaced
            ? [
                (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                (0, 1, 1, 2),
            ]
            : [(0, 0, 1, 1)]
        var data: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx))
            if columns.isEmpty { continue }
            for y in stride(from: y0, to: height, by: dy) {
                data.append(0)
                data += pack(columns.flatMap { samples($0, y) })
            }
        }
        return data
    }

    /// Samples packed at `bitDepth`: big-endian for 16, most significant bits first below 8.
    private func pack(_ samples: [Int]) -> [UInt8] {
        switch bitDepth {
        case 16: return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return samples.map { UInt8($0) }
        default:
            var bytes: [UInt8] = []
            var current = 0
            var used = 0
            for sample in samples {
                current = current << bitDepth | sample
                used += bitDepth
                if used == 8 {
                    bytes.append(UInt8(current))
                    current = 0
                    used = 0
                }
            }
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    static func u32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return u32(data.count) + typed + u32(Int(CRC32.checksum(typed)))
    }
}

enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

/// zlib streams made by hand.
enum Deflate {
    /// `data` in stored (uncompressed) blocks.
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [
                final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
                UInt8(~count >> 8 & 0xFF),
            ]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        return out + adler32(data)
    }

    /// `count` zero bytes in one fixed-Huffman block: a literal 0, then copies of 258 bytes at
    /// distance 1 (13 bits each), so a few kilobytes inflate to megabytes: a decompression bomb.
    static func zeros(_ count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.bits(1, count: 1)  // final block
        writer.bits(1, count: 2)  // fixed Huffman codes
        writer.code(0x30, length: 8)  // literal 0
        var remaining = count - 1
        while remaining > 0 {
            let length = remaining >= 261 ? 258 : min(remaining, 10)
            if length < 3 {
                for _ in 0..<length { writer.code(0x30, length: 8) }
            } else if length == 258 {
                writer.code(0xC5, length: 8)  // length code 285
                writer.code(0, length: 5)  // distance code 0: distance 1
            } else {
                writer.code(length - 3 + 1, length: 7)  // length codes 257...264: lengths 3...10
                writer.code(0, length: 5)
            }
            remaining -= length
        }
        writer.code(0, length: 7)  // end of block
        let sums = UInt32((count % 65_521) << 16 | 1)  // adler32 of zeros: a = 1, b = count
        return [0x78, 0x01] + writer.finished + [
            UInt8(sums >> 24), UInt8(sums >> 16 & 0xFF), UInt8(sums >> 8 & 0xFF), 1,
        ]
    }

    static func adler32(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let sum = b << 16 | a
        return [UInt8(sum >> 24), UInt8(sum >> 16 & 0xFF), UInt8(sum >> 8 & 0xFF), UInt8(sum & 0xFF)]
    }

    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var used: UInt32 = 0

        /// Bits least significant first (header fields, extra bits).
        mutating func bits(_ value: Int, count: Int) {
            for i in 0..<count { put(UInt32(value >> i) & 1) }
        }

        /// A Huffman code, most significant bit first.
        mutating func code(_ value: Int, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { put(UInt32(value >> i) & 1) }
        }

        private mutating func put(_ bit: UInt32) {
            current |= bit << used
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }

        var finished: [UInt8] { used > 0 ? bytes + [UInt8(current)] : bytes }
    }
}
