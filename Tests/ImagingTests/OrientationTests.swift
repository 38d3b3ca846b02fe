import Imaging
import MediaModel
import Testing

@Suite struct OrientationTests {
    enum Side { case top, bottom, left, right }

    /// From the Exif specification: where the stored image's first row and first column belong
    /// when the photo is shown, for orientations 1 through 8.
    static let sides: [Int: (row: Side, column: Side)] = [
        1: (.top, .left), 2: (.top, .right), 3: (.bottom, .right), 4: (.bottom, .left),
        5: (.left, .top), 6: (.right, .top), 7: (.right, .bottom), 8: (.left, .bottom),
    ]

    static func opposite(_ side: Side) -> Side {
        switch side {
        case .top: .bottom
        case .bottom: .top
        case .left: .right
        case .right: .left
        }
    }

    /// The pixel a few pixels inside the corner where two sides meet.
    static func corner(_ a: Side, _ b: Side, width: Int, height: Int) -> (Int, Int) {
        let sides = [a, b]
        let x = sides.contains(.left) ? 3 : width - 4
        let y = sides.contains(.top) ? 3 : height - 4
        return (x, y)
    }

    @Test(arguments: 1...8)
    func exifOrientation_putsEachStoredCornerWhereTheSpecSays(orientation: Int) throws {
        let stored = try Fixtures.quadrants(width: 64, height: 32)
        let jpeg = Fixtures.withExif(
            try ImageEncoder.jpeg(stored, quality: 95), orientation: orientation,
            littleEndian: orientation % 2 == 1)
        let (row, column) = try #require(Self.sides[orientation])

        let decoded = try ImageDecoder().decode(jpeg)

        #expect(ExifOrientation.read(fromJPEG: jpeg).rawValue == orientation)
        let swaps = orientation >= 5
        #expect(decoded.width == (swaps ? 32 : 64) && decoded.height == (swaps ? 64 : 32))
        // The first row runs along `row` starting at `column`; the first column along `column`.
        let expectations: [(Side, Side, PixelImage.Color)] = [
            (row, column, Fixtures.red),  // stored top left
            (row, Self.opposite(column), Fixtures.green),  // stored top right
            (Self.opposite(row), column, Fixtures.blue),  // stored bottom left
            (Self.opposite(row), Self.opposite(column), Fixtures.white),  // stored bottom right
        ]
        for (a, b, color) in expectations {
            let (x, y) = Self.corner(a, b, width: decoded.width, height: decoded.height)
            #expect(
                Fixtures.close(decoded.pixel(x: x, y: y), color, 12),
                "orientation \(orientation), corner \(a)-\(b)")
        }
    }

    @Test func thumbnailOfARotatedPhoto_isUprightAndSizedAsShown() throws {
        let stored = try Fixtures.quadrants(width: 64, height: 32)
        let jpeg = Fixtures.withExif(
            try ImageEncoder.jpeg(stored, quality: 95), orientation: 6, littleEndian: false)

        let thumbnail = try ImageDecoder().thumbnail(jpeg, width: 16)

        #expect(thumbnail.width == 16 && thumbnail.height == 32)
        // Turned 90 degrees clockwise: the stored top left (red) is now top right.
        #expect(Fixtures.close(thumbnail.pixel(x: 14, y: 1), Fixtures.red, 12))
        #expect(Fixtures.close(thumbnail.pixel(x: 1, y: 1), Fixtures.blue, 12))
        #expect(try ImageDecoder().info(jpeg).width == 32)
    }

    @Test func damagedOrOutOfRangeExif_isIgnored() throws {
        let jpeg = try ImageEncoder.jpeg(Fixtures.quadrants(width: 16, height: 8))
        let outOfRange = Fixtures.withExif(jpeg, orientation: 9, littleEndian: true)
        var cutShort = Fixtures.withExif(jpeg, orientation: 6, littleEndian: true)
        cutShort[5] = 20  // the APP1 length now ends inside the IFD

        #expect(ExifOrientation.read(fromJPEG: jpeg) == .topLeft)
        #expect(ExifOrientation.read(fromJPEG: outOfRange) == .topLeft)
        #expect(ExifOrientation.read(fromJPEG: cutShort) == .topLeft)
        #expect(try ImageDecoder().decode(outOfRange).width == 16)
    }
}
