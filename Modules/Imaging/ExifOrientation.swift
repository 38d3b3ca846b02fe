/// How a camera says its photo must be turned to be seen upright: the Exif (TIFF) Orientation
/// tag, 1 through 8.
///
/// Each case is named after where the stored image's first row and first column belong when
/// the photo is shown: ``rightTop`` (6) means the first row is the visual right side and the first
/// column the visual top, the orientation of a phone photo taken upright.
public enum ExifOrientation: Int, CaseIterable, Hashable, Sendable {
    /// 1: as stored.
    case topLeft = 1
    /// 2: mirrored left to right.
    case topRight = 2
    /// 3: turned 180 degrees.
    case bottomRight = 3
    /// 4: mirrored top to bottom.
    case bottomLeft = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftTop = 5
    /// 6: turned 90 degrees clockwise.
    case rightTop = 6
    /// 7: mirrored along the other diagonal (transversed).
    case rightBottom = 7
    /// 8: turned 90 degrees counterclockwise.
    case leftBottom = 8

    /// Whether the displayed image's width is the stored image's height (orientations 5 through 8).
    public var swapsSides: Bool { rawValue >= 5 }

    /// The orientation a JPEG file's Exif data gives, or ``topLeft`` when it gives none.
    ///
    /// Reads the segments before the first scan, finds the first APP1 segment that starts with
    /// `Exif\0\0`, and looks up tag 0x0112 in its first IFD, in either byte order (`II` or `MM`).
    /// A missing, damaged or out-of-range value is ``topLeft``: orientation is a hint, and a
    /// broken hint must not make a photo unreadable. Linear in the size of the segments read;
    /// every offset is bounds-checked.
    public static func read(fromJPEG bytes: [UInt8]) -> ExifOrientation {
        guard let tiff = exifPayload(in: bytes), let value = orientationValue(inTIFF: tiff) else {
            return .topLeft
        }
        return ExifOrientation(rawValue: value) ?? .topLeft
    }

    /// The TIFF data of the first Exif APP1 segment (after `Exif\0\0`), if any.
    static func exifPayload(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan, end of image
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {  // markers without a length
                offset += 2
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
            if marker == 0xE1, end - start >= header.count,
                bytes[start..<(start + header.count)].elementsEqual(header)
            {
                return bytes[(start + header.count)..<end]
            }
            offset = end
        }
        return nil
    }

    /// The Orientation tag's value in TIFF data (header, then IFD0), if present and well formed.
    static func orientationValue(inTIFF tiff: ArraySlice<UInt8>) -> Int? {
        let base = tiff.startIndex
        let count = tiff.count
        guard count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= count else { return nil }
            let a = Int(tiff[base + at])
            let b = Int(tiff[base + at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else {
                return nil
            }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
                guard u16(entry + 2) == 3, u32(entry + 4) == 1 else { return nil }
                return u16(entry + 8)
            }
        }
        return nil
    }
}
