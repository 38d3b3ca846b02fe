import Basics
import Imaging
import Testing

/// Bad input never crashes and never allocates for an image over the limits: each kind of
/// damage gives its own error.
@Suite struct BrokenInputTests {
    let decoder = ImageDecoder()

    static func smallJPEG() throws -> [UInt8] {
        try ImageEncoder.jpeg(Fixtures.gradient(width: 320, height: 240), quality: 90)
    }

    static func smallPNG() -> [UInt8] {
        PNGWriter(width: 40, height: 30, colorType: .rgb, bitDepth: 8).file { x, y in [x * 6, y * 8, 77] }
    }

    @Test func bytesOfAnotherFormat_areNotAnImage() {
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0]

        #expect(ImageFormat.sniff(gif) == nil)
        #expect(throws: ImageError(.notAnImage, "not a JPEG or PNG file (it starts with 47 49 46 38)")) {
            try decoder.decode(gif)
        }
        #expect(throws: ImageError(.notAnImage, "not a JPEG or PNG file (it is empty)")) {
            try decoder.decode([])
        }
    }

    @Test func formatIsSniffedFromBytes() throws {
        #expect(ImageFormat.sniff(try Self.smallJPEG()) == .jpeg)
        #expect(ImageFormat.sniff(Self.smallPNG()) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
    }

    @Test func headerOfThirtyThousandSquared_isRefusedBeforeDecoding() throws {
        let jpeg = Fixtures.withFrameSize(try Self.smallJPEG(), width: 30_000, height: 30_000)
        var png = Self.smallPNG()
        png.replaceSubrange(16..<24, with: PNGWriter.u32(30_000) + PNGWriter.u32(30_000))
        let message = "image is 30000x30000; the limit is 16384 pixels a side and 50 megapixels in all"

        #expect(try decoder.info(jpeg).width == 30_000)
        #expect(throws: ImageError(.tooLarge, message)) { try decoder.decode(jpeg) }
        #expect(throws: ImageError(.tooLarge, message)) { try decoder.thumbnail(jpeg, width: 80) }
        #expect(throws: ImageError(.tooLarge, message)) { try decoder.decode(png) }
    }

    @Test func pngBomb_smallFileOfAHundredMegapixels_isRefused() {
        // 10000x10000 1-bit gray: 12.5 MB of scanlines in a file of about 80 KB, and 300 MB as RGB.
        let writer = PNGWriter(width: 10_000, height: 10_000, colorType: .gray, bitDepth: 1)
        let bomb = writer.file(idat: Deflate.zeros(10_000 * (1 + 1250)))

        #expect(bomb.count < 100_000)
        #expect(
            throws: ImageError(
                .tooLarge, "image is 10000x10000; the limit is 16384 pixels a side and 50 megapixels in all")
        ) { try decoder.decode(bomb) }
    }

    @Test func pngWhoseDataInflatesFarBeyondItsHeader_decodesOnlyWhatTheHeaderSays() throws {
        // A 100x100 black RGB image needs 30,100 bytes of scanlines; this IDAT inflates to 16 MB.
        let writer = PNGWriter(width: 100, height: 100, colorType: .rgb, bitDepth: 8)
        let file = writer.file(idat: Deflate.zeros(16 << 20))

        let decoded = try decoder.decode(file)

        #expect(file.count < 120_000)
        #expect(decoded.width == 100 && decoded.height == 100 && decoded.rgb.allSatisfy { $0 == 0 })
    }

    @Test func truncatedFiles_sayTheFileEndsEarly() throws {
        let jpeg = try Self.smallJPEG()
        let png = Self.smallPNG()

        #expect(throws: ImageError(.truncated, "JPEG file ends early (truncated)")) {
            try decoder.decode(Array(jpeg.prefix(jpeg.count / 2)))
        }
        #expect(throws: ImageError(.truncated, "JPEG file ends early (truncated)")) {
            try decoder.decode(Array(jpeg.prefix(300)))
        }
        #expect(throws: ImageError(.truncated, "PNG file ends early (truncated)")) {
            try decoder.decode(Array(png.prefix(png.count / 2)))
        }
        #expect(throws: ImageError(.truncated, "PNG file ends early (truncated)")) {
            try decoder.decode(Array(png.prefix(20)))
        }
    }

    @Test func corruptHuffmanData_isReportedNotShownAsGrey() throws {
        var jpeg = try Self.smallJPEG()
        let start = try #require(Fixtures.scanStart(jpeg))
        // Overwrite the middle of the entropy-coded data with bytes that are never a marker.
        var random = SplitMix64(seed: 17)
        for offset in (start + 200)..<(start + 400) { jpeg[offset] = UInt8(random.next() % 0xFF) }

        let error = #expect(throws: ImageError.self) { try decoder.decode(jpeg) }

        #expect(error?.code == .corrupt)
        #expect(
            error?.message.hasPrefix("JPEG data is damaged (libjpeg: Corrupt JPEG data") == true,
            "\(String(describing: error))")
    }

    @Test func pngWithABadChecksum_orDamagedData_isCorrupt() {
        var badCRC = Self.smallPNG()
        badCRC[badCRC.count - 13] ^= 0xFF  // IDAT's CRC, just before the 12-byte IEND chunk
        var damaged = Self.smallPNG()
        damaged[50] ^= 0xFF  // inside IDAT's data (the chunk starts at 33: length, type, data from 41)

        #expect(throws: ImageError(.corrupt, "PNG data is damaged (libpng: IDAT: CRC error)")) {
            try decoder.decode(badCRC)
        }
        #expect(throws: ImageError(.corrupt, "PNG data is damaged (libpng: IDAT: incorrect data check)")) {
            try decoder.decode(damaged)
        }
    }

    @Test func cmykJPEG_isAClearUnsupportedError() throws {
        let cmyk = try Fixtures.cmykJPEG(width: 16, height: 16)

        #expect(
            throws: ImageError(
                .unsupported,
                "CMYK JPEGs are not supported; save the photo as an RGB (sRGB) JPEG and try again")
        ) { try decoder.decode(cmyk) }
    }

    @Test func randomBytes_afterAValidSignature_neverCrash() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        for round in 0..<200 {
            let signature: [UInt8] =
                round.isMultiple(of: 2)
                ? [0xFF, 0xD8, 0xFF]
                : [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
            let tail = (0..<Int(random.next() % 2000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }

            let error = #expect(throws: ImageError.self, "seed \(seed), round \(round)") {
                try decoder.decode(signature + tail)
            }

            #expect(
                [.corrupt, .truncated, .tooLarge, .unsupported].contains(error?.code),
                "seed \(seed), round \(round)")
        }
    }

    @Test func thumbnailWidthOutsideTheLimits_isAnArgumentError() throws {
        let jpeg = try Self.smallJPEG()

        #expect(throws: ImageError(.invalidArgument, "thumbnail width 0 is outside 1...16384")) {
            try decoder.thumbnail(jpeg, width: 0)
        }
    }
}
