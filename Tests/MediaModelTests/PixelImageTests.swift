import MediaModel
import Testing

@Suite struct PixelImageTests {
    @Test func generated_isDeterministicPerSeed() {
        let first = PixelImage.generated(seed: 42, width: 16, height: 12)
        let again = PixelImage.generated(seed: 42, width: 16, height: 12)
        let other = PixelImage.generated(seed: 43, width: 16, height: 12)

        #expect(first == again)
        #expect(first != other)
        #expect(first.rgb.count == 16 * 12 * 3)
    }

    @Test(arguments: [(0, 4), (65, 4), (4, -1)])
    func generated_clampsSidesToTheAllowedRange(width: Int, height: Int) {
        let image = PixelImage.generated(seed: 1, width: width, height: height)

        #expect((1...PixelImage.maxSide).contains(image.width))
        #expect((1...PixelImage.maxSide).contains(image.height))
        #expect(image.rgb.count == image.width * image.height * 3)
    }

    @Test func init_rejectsAByteCountThatDoesNotMatchTheSize() {
        let error = #expect(throws: PixelImage.InvalidSize.self) {
            try PixelImage(width: 2, height: 2, rgb: Array(repeating: 0, count: 11))
        }
        #expect(error?.message == "a 2x2 RGB image needs 12 bytes, found 11")
    }

    @Test func init_rejectsAnImageLargerThanTheMaximum() {
        let error = #expect(throws: PixelImage.InvalidSize.self) {
            try PixelImage(width: 65, height: 1, rgb: Array(repeating: 0, count: 195))
        }
        #expect(
            error?.message
                == "image size 65x1 is outside 1x1...64x64; scale it down before making a PixelImage")
    }

    @Test func pixel_readsRowByRowAndIsNilOutside() throws {
        let image = try PixelImage(width: 2, height: 1, rgb: [1, 2, 3, 4, 5, 6])

        #expect(image.pixel(x: 1, y: 0) == PixelImage.Color(red: 4, green: 5, blue: 6))
        #expect(image.pixel(x: 2, y: 0) == nil)
        #expect(image.pixel(x: 0, y: -1) == nil)
    }
}
