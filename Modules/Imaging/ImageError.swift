/// Why an image could not be decoded or encoded: a code to branch on and a message for people.
///
/// Every failure of the decoders is one of these, never a crash: a file that is not an image, an
/// image over ``ImageLimits``, a file cut short, damaged data, a kind of image not supported.
public struct ImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// The bytes are neither a JPEG nor a PNG file.
        case notAnImage
        /// The image is larger than the decoder's ``ImageLimits``; nothing was allocated for it.
        case tooLarge
        /// The file ends before the image does.
        case truncated
        /// The file is damaged (bad Huffman data, a CRC mismatch, an impossible header).
        case corrupt
        /// A valid image of a kind this module does not decode (a CMYK JPEG).
        case unsupported
        /// Decoding would need more working memory than ``ImageLimits/maxDecoderMemory``.
        case memoryLimit
        /// A progressive JPEG has more scans than ``ImageLimits/maxScans`` (each costs a pass
        /// over the whole image).
        case tooManyScans
        /// The caller asked for something impossible (a thumbnail 0 pixels wide).
        case invalidArgument
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, quoting the offending value, and how to fix it where that is known.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
