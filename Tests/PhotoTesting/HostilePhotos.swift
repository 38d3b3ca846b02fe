/// Photo files made to hurt a decoder, written byte by byte (no codec library), as the attacks
/// of issue 34 used them: a small PNG whose pixels are cheap to send and dear to decode, and a
/// progressive JPEG of hundreds of scans.
public enum HostilePhotos {
    /// A palette PNG of `width` x `height` pixels at one bit a pixel, with a tRNS chunk (so a
    /// decoder expands it to RGBA), every pixel 0: a few tens of kilobytes that decode to
    /// `width * height * 4` bytes. 16384 x 3051 is the attack's file (50 megapixels, 0.84 s and
    /// 473 MiB for the unfixed server).
    public static func pixelBombPNG(width: Int = 16_384, height: Int = 3051) -> [UInt8] {
        var header = u32(width) + u32(height)
        header += [1, 3, 0, 0, 0]  // bit depth 1, palette, deflate, filter 0, not interlaced
        let rowBytes = 1 + (width + 7) / 8  // filter byte, then the packed pixels
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("PLTE", [0, 0, 0, 255, 255, 255]) + chunk("tRNS", [0])
            + chunk("IDAT", zlibZeros(rowBytes * height)) + chunk("IEND", [])
    }

    /// How many scans ``progressiveJPEG(scans:)`` can write: a DC scan and its refinement, then
    /// each of the 63 AC coefficients of each of the 3 components sent alone and refined.
    public static let mostScans = 2 + 3 * 63 * 2

    /// A valid progressive JPEG of 8 x 8 pixels (grey) in exactly `scans` scans (2 through
    /// ``mostScans``): the shape of a scan bomb, where each scan makes the decoder pass over
    /// every coefficient again (the attack's 704-scan file cost 11.5 s).
    public static func progressiveJPEG(scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // one table of ones
        // SOF2: 8 bits, 8 x 8, three components sampled 1x1 with table 0.
        bytes += segment(0xC2, [8, 0, 8, 0, 8, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        // One DC and one AC table, each with a single 1-bit code ('0') for symbol 0: a DC
        // difference of 0, and an end of band.
        let single: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
        bytes += segment(0xC4, [0x00] + single + [0x10] + single)
        var script: [(components: [UInt8], band: UInt8, approximation: UInt8, data: UInt8)] = [
            ([1, 2, 3], 0, 0x01, 0x1F), ([1, 2, 3], 0, 0x10, 0x1F),
        ]
        for component in UInt8(1)...3 {
            for band in UInt8(1)...63 {
                script.append(([component], band, 0x01, 0x7F))
                script.append(([component], band, 0x10, 0x7F))
            }
        }
        for scan in script.prefix(max(2, min(scans, mostScans))) {
            var sos: [UInt8] = [UInt8(scan.components.count)]
            for component in scan.components { sos += [component, 0x00] }
            sos += [scan.band, scan.band, scan.approximation]
            // Each block's only code is '0' (one bit a block); the rest of the byte is 1s.
            bytes += segment(0xDA, sos) + [scan.data]
        }
        return bytes + [0xFF, 0xD9]
    }

    // MARK: - Bytes

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    private static func u32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return u32(data.count) + typed + u32(Int(crc32(typed)))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of `count` (at least 1) zero bytes in one fixed-Huffman block: a literal 0,
    /// then copies of 258 bytes at distance 1, 13 bits each.
    private static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var filled = 0
        func bits(_ value: Int, _ length: Int) {  // least significant bit first
            accumulator |= UInt32(value) << filled
            filled += length
            while filled >= 8 {
                out.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                filled -= 8
            }
        }
        func code(_ value: Int, _ length: Int) {  // Huffman codes go most significant bit first
            var reversed = 0
            for index in 0..<length where value >> index & 1 == 1 { reversed |= 1 << (length - 1 - index) }
            bits(reversed, length)
        }
        bits(1, 1)  // final block
        bits(1, 2)  // fixed codes
        code(0x30, 8)  // literal 0
        var remaining = count - 1
        while remaining > 0 {
            if remaining >= 258 + 3 || remaining == 258 {
                code(0xC5, 8)  // length 258
                code(0, 5)  // distance 1
                remaining -= 258
            } else if remaining >= 3 {
                let length = min(remaining, 10)
                code(length - 3 + 1, 7)  // lengths 3...10
                code(0, 5)
                remaining -= length
            } else {
                code(0x30, 8)
                remaining -= 1
            }
        }
        code(0, 7)  // end of block
        if filled > 0 { out.append(UInt8(accumulator & 0xFF)) }
        let sums = UInt32((count % 65_521) << 16 | 1)  // adler32 of zeros: a = 1, b = count
        return [0x78, 0x01] + out + u32(Int(sums))
    }
}
