import Imaging
import MediaModel
import Testing

/// A PNG's transparency kept through decoding, resizing and encoding, so the app can draw it over
/// its own background later.
@Suite struct TransparencyTests {
    /// Left half transparent (stored as green), right half opaque red.
    static func halfTransparent(width: Int, height: Int) throws -> TransparentRaster {
        var rgb: [UInt8] = []
        var alpha: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                rgb += x >= width / 2 ? [255, 0, 0] : [0, 255, 0]
                alpha.append(x >= width / 2 ? 255 : 0)
            }
        }
        return try TransparentRaster(color: Raster(width: width, height: height, rgb: rgb), alpha: alpha)
    }

    @Test func aPNGWithAlpha_decodesWithItsTransparencyKept_andCompositesAsTheDecoderDoes() throws {
        // Given an RGBA PNG, half transparent
        let image = try Self.halfTransparent(width: 40, height: 10)
        let file = try ImageEncoder.png(image)

        // When it is decoded keeping its transparency
        let kept = try #require(try ImageDecoder().decodeKeepingTransparency(file))

        // Then it is the image as encoded, and drawn over a background it gives exactly the bytes
        // the decoder gives for that background
        #expect(kept == image)
        let background = PixelImage.Color(red: 30, green: 60, blue: 90)
        #expect(kept.composited(over: background) == (try ImageDecoder(background: background).decode(file)))
        #expect(kept.composited(over: background).pixel(x: 0, y: 0) == background)
    }

    @Test func anImageWithoutTransparency_hasNothingToKeep() throws {
        let jpeg = try ImageEncoder.jpeg(
            Raster(width: 8, height: 8, filledWith: .init(red: 1, green: 2, blue: 3)))
        let png = try ImageEncoder.png(
            Raster(width: 8, height: 8, filledWith: .init(red: 1, green: 2, blue: 3)))
        #expect(try ImageDecoder().decodeKeepingTransparency(jpeg) == nil)
        #expect(try ImageDecoder().decodeKeepingTransparency(png) == nil)
    }

    @Test func resizing_neverLetsATransparentPixelsColorBleed() throws {
        // Given the half-transparent image, 40 wide
        let image = try Self.halfTransparent(width: 40, height: 10)

        // When it is shrunk to 5 wide: the middle column straddles the edge
        let small = try image.scaled(toWidth: 5, height: 2)

        // Then the transparent side stays transparent, the opaque side opaque red, and the
        // straddling pixel is half transparent and red, with no green from the hidden color
        #expect(small.alpha[0] == 0 && small.alpha[4] == 255)
        #expect((120...135).contains(small.alpha[2]), "alpha \(small.alpha[2])")
        let straddling = try #require(small.color.pixel(x: 2, y: 0))
        #expect(straddling == PixelImage.Color(red: 255, green: 0, blue: 0), "\(straddling)")
        #expect(small.color.pixel(x: 4, y: 1) == PixelImage.Color(red: 255, green: 0, blue: 0))
    }

    @Test func aResizedImage_keepsItsTransparencyThroughAPNGFile() throws {
        let small = try Self.halfTransparent(width: 64, height: 16).scaled(toWidth: 16, height: 4)
        let again = try #require(try ImageDecoder().decodeKeepingTransparency(ImageEncoder.png(small)))
        #expect(again == small)
    }
}
