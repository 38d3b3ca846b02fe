import Imaging
import MediaModel
import Testing

@Suite struct PNGDecodingTests {
    static let background = PixelImage.Color(red: 16, green: 24, blue: 32)
    let decoder = ImageDecoder(background: background)

    struct Case: CustomTestStringConvertible, Sendable {
        var colorType: PNGWriter.ColorType
        var bitDepth: Int
        var interlaced: Bool
        var testDescription: String { "\(colorType) \(bitDepth)-bit\(interlaced ? " interlaced" : "")" }
    }

    static let cases: [Case] = [
        (PNGWriter.ColorType.gray, [1, 2, 4, 8, 16]), (.rgb, [8, 16]), (.palette, [1, 2, 4, 8]),
        (.grayAlpha, [8, 16]), (.rgba, [8, 16]),
    ].flatMap { type, depths in
        depths.flatMap { depth in
            [false, true].map { Case(colorType: type, bitDepth: depth, interlaced: $0) }
        }
    }

    /// A 13x7 image (odd sides exercise bit packing and Adam7's partial passes) whose samples
    /// vary with position, and the RGB each pixel must decode to.
    struct TestImage {
        let c: Case
        var maxSample: Int { (1 << c.bitDepth) - 1 }
        var paletteEntries: Int { min(maxSample + 1, 20) }

        var writer: PNGWriter {
            var writer = PNGWriter(
                width: 13, height: 7, colorType: c.colorType, bitDepth: c.bitDepth, interlaced: c.interlaced)
            if c.colorType == .palette {
                writer.palette = (0..<paletteEntries).map {
                    [color(of: $0).0, color(of: $0).1, color(of: $0).2]
                }
                writer.transparency = (0..<paletteEntries).map { UInt8(alpha(of: $0)) }
            }
            return writer
        }

        func sample(_ x: Int, _ y: Int, _ channel: Int) -> Int {
            (x * 37 + y * 101 + channel * 53) * 977 % (maxSample + 1)
        }

        func samples(_ x: Int, _ y: Int) -> [Int] {
            c.colorType == .palette
                ? [sample(x, y, 0) % paletteEntries] : (0..<c.colorType.channels).map { sample(x, y, $0) }
        }

        func color(of entry: Int) -> (UInt8, UInt8, UInt8) {
            (UInt8(entry * 37 % 256), UInt8(entry * 91 % 256), UInt8(entry * 13 % 256))
        }

        func alpha(of entry: Int) -> Int { entry == 0 ? 0 : entry * 60 % 256 }

        func to8(_ value: Int) -> Int { Int((Double(value) * 255 / Double(maxSample)).rounded()) }

        func over(_ value: Int, _ back: UInt8, _ alpha: Int) -> UInt8 {
            let mixed = Double(value * alpha + Int(back) * (255 - alpha)) / 255
            return UInt8(mixed.rounded())
        }

        var file: [UInt8] { writer.file(samples: samples) }

        func expected(_ x: Int, _ y: Int) -> PixelImage.Color {
            let bg = PNGDecodingTests.background
            let values = samples(x, y)
            var rgb: [Int]
            var alpha = 255
            switch c.colorType {
            case .gray: rgb = [to8(values[0]), to8(values[0]), to8(values[0])]
            case .rgb: rgb = values.map(to8)
            case .palette:
                let entry = color(of: values[0])
                rgb = [Int(entry.0), Int(entry.1), Int(entry.2)]
                alpha = self.alpha(of: values[0])
            case .grayAlpha:
                rgb = [to8(values[0]), to8(values[0]), to8(values[0])]
                alpha = to8(values[1])
            case .rgba:
                rgb = values.prefix(3).map(to8)
                alpha = to8(values[3])
            }
            return PixelImage.Color(
                red: over(rgb[0], bg.red, alpha), green: over(rgb[1], bg.green, alpha),
                blue: over(rgb[2], bg.blue, alpha))
        }
    }

    @Test(arguments: cases)
    func everyColorTypeAndDepth_decodesToItsColorsOverTheBackground(_ c: Case) throws {
        let image = TestImage(c: c)

        let decoded = try decoder.decode(image.file)

        #expect(decoded.width == 13 && decoded.height == 7)
        var wrong: [String] = []
        for y in 0..<7 {
            for x in 0..<13 where !Fixtures.close(decoded.pixel(x: x, y: y), image.expected(x, y), 1) {
                wrong.append(
                    "(\(x), \(y)): \(String(describing: decoded.pixel(x: x, y: y))) != \(image.expected(x, y))"
                )
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels differ, first: \(wrong.prefix(3))")
    }

    @Test func transparentKeyColors_inGrayAndRGB_showTheBackground() throws {
        var gray = PNGWriter(width: 4, height: 1, colorType: .gray, bitDepth: 8)
        gray.transparency = [0, 200]
        var rgb = PNGWriter(width: 4, height: 1, colorType: .rgb, bitDepth: 8)
        rgb.transparency = [0, 10, 0, 20, 0, 30]

        let grayImage = try decoder.decode(gray.file { x, _ in [x == 1 ? 200 : 90] })
        let rgbImage = try decoder.decode(rgb.file { x, _ in x == 2 ? [10, 20, 30] : [90, 90, 90] })

        #expect(grayImage.pixel(x: 1, y: 0) == Self.background)
        #expect(grayImage.pixel(x: 0, y: 0) == PixelImage.Color(red: 90, green: 90, blue: 90))
        #expect(rgbImage.pixel(x: 2, y: 0) == Self.background)
        #expect(rgbImage.pixel(x: 3, y: 0) == PixelImage.Color(red: 90, green: 90, blue: 90))
    }

    @Test func halfTransparentWhite_overTheThemeBackground_isTheirMix() throws {
        let writer = PNGWriter(width: 2, height: 2, colorType: .rgba, bitDepth: 8)
        let theme = ImageDecoder(background: PixelImage.Color(red: 0, green: 0, blue: 100))

        let decoded = try theme.decode(writer.file { _, _ in [255, 255, 255, 128] })

        #expect(decoded.pixel(x: 1, y: 1) == PixelImage.Color(red: 128, green: 128, blue: 178))
    }
}
