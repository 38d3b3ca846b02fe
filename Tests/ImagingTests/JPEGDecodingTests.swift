import CImageCodecs
import MediaModel
import Testing

@testable import Imaging

@Suite struct JPEGDecodingTests {
    let decoder = ImageDecoder()

    @Test(arguments: [false, true])
    func twelveMegapixelPhoto_decodedForAnEightyPixelThumbnail_atOneEighthScale(progressive: Bool) throws {
        let jpeg = try (progressive ? Fixtures.largeProgressive : Fixtures.largeBaseline).get()

        let draft = try decoder.decode(jpeg, minimumWidth: 80)
        let thumbnail = try decoder.thumbnail(jpeg, width: 80)

        #expect(draft.width == 500 && draft.height == 375)
        #expect(thumbnail.width == 80 && thumbnail.height == 60)
        // Each thumbnail pixel averages a 50x50 block of the gradient: close to its centre's color.
        for (x, y) in [(0, 0), (79, 0), (0, 59), (79, 59), (40, 30)] {
            let centre = Fixtures.gradient(x: x * 50 + 25, y: y * 50 + 25, width: 4000, height: 3000)
            #expect(Fixtures.close(thumbnail.pixel(x: x, y: y), centre, 6), "pixel (\(x), \(y))")
        }
    }

    @Test func twelveMegapixelPhoto_decodedInFull_hasItsFullSize() throws {
        let jpeg = try Fixtures.largeBaseline.get()

        let info = try decoder.info(jpeg)
        let full = try decoder.decode(jpeg)

        #expect(
            info == ImageInfo(format: .jpeg, storedWidth: 4000, storedHeight: 3000, orientation: .topLeft))
        #expect(full.width == 4000 && full.height == 3000 && full.rgb.count == 4000 * 3000 * 3)
        #expect(
            Fixtures.close(
                full.pixel(x: 3999, y: 0), Fixtures.gradient(x: 3999, y: 0, width: 4000, height: 3000), 6))
        #expect(
            Fixtures.close(
                full.pixel(x: 0, y: 2999), Fixtures.gradient(x: 0, y: 2999, width: 4000, height: 3000), 6))
    }

    @Test(arguments: [
        // (width, height, minimum width, minimum height, numerator M of the scale M/8)
        (4000, 3000, 80, 60, 1),
        (4000, 3000, 500, 375, 1),
        (4000, 3000, 501, 1, 2),
        (4000, 3000, 1000, 1, 2),
        (4000, 3000, 1001, 1, 3),
        (4000, 3000, 1, 2999, 8),
        (4000, 3000, 4000, 3000, 8),
        (100, 100, 13, 13, 1),
        (100, 100, 14, 14, 2),
    ])
    func scaleChoice_isTheSmallestWhoseOutputIsStillLargeEnough(
        width: Int, height: Int, minimumWidth: Int, minimumHeight: Int, expected: Int
    ) {
        let numerator = JPEGCodec.scaleNumerator(
            width: width, height: height, minimumWidth: minimumWidth, minimumHeight: minimumHeight)

        #expect(numerator == expected)
    }

    @Test func progressiveFlag_isWrittenByTheEncoder() throws {
        let raster = try Fixtures.gradient(width: 64, height: 48)

        let baseline = try ImageEncoder.jpeg(raster)
        let progressive = try ImageEncoder.jpeg(raster, progressive: true)

        #expect(try header(baseline).progressive == 0)
        #expect(try header(progressive).progressive == 1)
        #expect(try decoder.decode(progressive) == decoder.decode(progressive))
    }

    @Test func grayscaleJPEG_decodesToEqualChannels() throws {
        let raster = try Fixtures.gradient(width: 64, height: 48)

        let gray = try ImageEncoder.jpeg(raster, quality: 95, grayscale: true)
        let decoded = try decoder.decode(gray)

        #expect(try header(gray).color == Int32(CIC_JPEG_GRAY.rawValue))
        #expect(decoded.width == 64 && decoded.height == 48)
        for y in stride(from: 0, to: 48, by: 7) {
            for x in stride(from: 0, to: 64, by: 9) {
                let pixel = try #require(decoded.pixel(x: x, y: y))
                #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
                let source = Fixtures.gradient(x: x, y: y, width: 64, height: 48)
                // Rec. 601 luma, as libjpeg converts RGB to gray.
                let luma =
                    0.299 * Double(source.red) + 0.587 * Double(source.green) + 0.114 * Double(source.blue)
                #expect(abs(Double(pixel.red) - luma) <= 4, "pixel (\(x), \(y))")
            }
        }
    }

    @Test func quality_tradesSizeForFidelity() throws {
        let raster = try Fixtures.gradient(width: 256, height: 256)

        let low = try ImageEncoder.jpeg(raster, quality: 20)
        let high = try ImageEncoder.jpeg(raster, quality: 95)

        #expect(low.count < high.count)
        #expect(throws: ImageError(.invalidArgument, "JPEG quality 0 is outside 1...100")) {
            try ImageEncoder.jpeg(raster, quality: 0)
        }
    }

    @Test func pngEncoding_roundTripsExactly() throws {
        let raster = try Fixtures.gradient(width: 37, height: 23)

        let png = try ImageEncoder.png(raster)

        #expect(ImageFormat.sniff(png) == .png)
        #expect(try decoder.decode(png) == raster)
    }

    private func header(_ jpeg: [UInt8]) throws -> cic_jpeg_header {
        var header = cic_jpeg_header()
        var status = cic_status()
        _ = jpeg.withUnsafeBufferPointer { cic_jpeg_read_header($0.baseAddress, $0.count, &header, &status) }
        try #require(status.code == 0)
        return header
    }
}
