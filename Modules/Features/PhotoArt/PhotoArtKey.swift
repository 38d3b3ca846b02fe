import TerminalUI

/// One photo's art at one drawn size: the stored photo's id and the pixel grid (one pixel a
/// column, two a line) it is scaled to. The grid follows from the photo's true size and the
/// cells it may take (`HalfBlockArt.layout(width:height:maxColumns:maxLines:)`), so a key names
/// one (photo, cell width) pair.
package struct PhotoArtKey: Hashable, Sendable, CustomStringConvertible {
    /// The stored photo's id (`"p12"`).
    package var photoID: String
    /// Pixels across: the columns the art takes.
    package var pixelWidth: Int
    /// Pixels down: two a line.
    package var pixelHeight: Int

    /// Makes a key.
    package init(photoID: String, pixelWidth: Int, pixelHeight: Int) {
        self.photoID = photoID
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The key of `photoID` drawn as `layout`.
    package init(photoID: String, layout: HalfBlockArt.ArtLayout) {
        self.init(photoID: photoID, pixelWidth: layout.pixelWidth, pixelHeight: layout.pixelHeight)
    }

    /// The grid's size in bytes (three a pixel).
    package var byteCount: Int { pixelWidth * pixelHeight * 3 }

    /// The file the disk cache keeps it in (`p12-80x60.art`), or nil when the id has characters
    /// that do not belong in a file name (such art is kept in memory only).
    package var fileName: String? {
        let allowed = photoID.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                    || scalar == "_")
        }
        guard allowed, !photoID.isEmpty, photoID.count <= 64 else { return nil }
        return "\(photoID)-\(pixelWidth)x\(pixelHeight).art"
    }

    package var description: String { "\(photoID) at \(pixelWidth)x\(pixelHeight)" }
}
