/// The file formats Imaging decodes, told apart by their first bytes (never by a file name).
public enum ImageFormat: String, Hashable, Sendable {
    /// JPEG (JFIF or Exif): starts with FF D8 FF.
    case jpeg
    /// PNG: starts with the 8-byte signature 89 'P' 'N' 'G' CR LF 1A LF.
    case png

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format the bytes are in, or `nil` when they are not a JPEG or PNG file.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= pngSignature.count, bytes[0..<pngSignature.count].elementsEqual(pngSignature) {
            return .png
        }
        return nil
    }

    /// The error for bytes `sniff` does not recognise, quoting their first bytes.
    static func notAnImage(_ bytes: [UInt8]) -> ImageError {
        guard !bytes.isEmpty else { return ImageError(.notAnImage, "not a JPEG or PNG file (it is empty)") }
        let start = bytes.prefix(4).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return ImageError(
            .notAnImage, "not a JPEG or PNG file (it starts with \(start.joined(separator: " ")))")
    }
}
