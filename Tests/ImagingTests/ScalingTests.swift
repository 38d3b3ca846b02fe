import Foundation
import Imaging
import MediaModel
import Testing

@Suite struct ScalingTests {
    /// The sRGB code of a linear-light value, by the sRGB formula.
    static func encode(_ linear: Double) -> Int {
        let c = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return Int((c * 255).rounded())
    }

    @Test func blackAndWhiteCheckerboard_shrinksToTheGreyItLooksLike_notToCode128() throws {
        var bytes: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<4 { bytes += Array(repeating: (x + y).isMultiple(of: 2) ? 255 : 0, count: 3) }
        }
        let checkerboard = try Raster(width: 4, height: 4, rgb: bytes)

        let grey = try checkerboard.scaled(toWidth: 1, height: 1)

        // Half the light of white: linear 0.5, which is sRGB 188.
        #expect(grey.rgb == [188, 188, 188])
        #expect(Self.encode(0.5) == 188)
    }

    @Test func flatColor_staysExactAtAnySize() throws {
        let color = PixelImage.Color(red: 200, green: 100, blue: 50)
        let flat = try Raster(width: 7, height: 5, filledWith: color)

        for (width, height) in [(3, 2), (1, 1), (7, 5), (6, 4), (20, 11)] {
            let scaled = try flat.scaled(toWidth: width, height: height)
            #expect(scaled.width == width && scaled.height == height)
            #expect(
                Set(stride(from: 0, to: scaled.rgb.count, by: 3).map { scaled.rgb[$0..<$0 + 3] }) == [
                    [200, 100, 50]
                ])
        }
    }

    @Test func partlyCoveredPixels_countByTheFractionCovered() throws {
        // Three pixels, black, white, black, to two: each output covers 1.5 source pixels, a
        // whole black one and half the white one: a third of white's light.
        let row = try Raster(width: 3, height: 1, rgb: [0, 0, 0, 255, 255, 255, 0, 0, 0])

        let scaled = try row.scaled(toWidth: 2, height: 1)

        let third = UInt8(Self.encode(1.0 / 3))
        #expect(scaled.rgb == [third, third, third, third, third, third])
    }

    @Test func invalidSize_isAnArgumentError() throws {
        let raster = try Raster(width: 2, height: 2, filledWith: .init(red: 1, green: 2, blue: 3))

        #expect(throws: ImageError(.invalidArgument, "cannot scale to 0x3; each side must be at least 1")) {
            try raster.scaled(toWidth: 0, height: 3)
        }
        #expect(throws: ImageError.self) { try Raster(width: 2, height: 2, rgb: [1, 2, 3]) }
    }

    @Test func pixelImage_fitsWithinSixtyFourKeepingTheAspectRatio() throws {
        let wide = try Fixtures.quadrants(width: 200, height: 100)
        let small = try Fixtures.quadrants(width: 10, height: 6)

        let fitted = wide.pixelImage()
        let kept = small.pixelImage()
        let tiny = wide.pixelImage(maxSide: 8)

        #expect(fitted.width == 64 && fitted.height == 32)
        #expect(fitted.pixel(x: 0, y: 0) == Fixtures.red && fitted.pixel(x: 63, y: 31) == Fixtures.white)
        #expect(kept.width == 10 && kept.height == 6 && kept.rgb == small.rgb)
        #expect(tiny.width == 8 && tiny.height == 4)
    }
}
