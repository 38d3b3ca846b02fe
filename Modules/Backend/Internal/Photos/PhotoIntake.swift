import Imaging
import MediaModel

/// An uploaded photo made ready to store: checked, decoded once, its small rendition and its
/// resized JPEG variants computed. Pure work, no database.
///
/// The type comes from the bytes (JPEG's `FF D8 FF`, PNG's signature), never from what the
/// client says; the decode keeps Imaging's limits (16,384 pixels a side, 50 megapixels, 64
/// scans) and holds at most ``maximumDecodedPixels``, checked from the header first
/// (``check(_:field:)``), before the photo waits for its turn to be decoded.
struct PhotoIntake: Sendable {
    /// The largest photo file accepted, in bytes (before base64).
    static let maximumBytes = PostLimits.photoBytes
    /// The widths of the stored JPEG variants; a photo gets those narrower than itself, plus one
    /// at its own width when that is at most the largest (never wider than the original).
    static let variantWidths = [160, 320, 640, 1280]
    /// The most decoded pixels one photo may hold: what a PNG is at full size, a JPEG at the DCT
    /// scale it is decoded at, a progressive JPEG at full size (it keeps every coefficient).
    static let maximumDecodedPixels = 40_000_000
    /// libjpeg quality of the variants.
    static let variantQuality = 85

    /// One stored size of a photo.
    struct Variant: Sendable {
        let width: Int
        let height: Int
        /// The variant's file: a JPEG, or for a photo with transparency an RGBA PNG (the app
        /// draws it over its own theme's background, which the server cannot know).
        let file: [UInt8]
    }

    let format: ImageFormat
    let original: [UInt8]
    /// The upright size of the original.
    let width: Int
    let height: Int
    let pixels: PixelImage
    /// Widest first.
    let variants: [Variant]

    /// Checks `bytes` from the file's size, type and header alone, and returns the pixels its
    /// decode holds (Imaging's `decodedPixels`: a PNG's full size, a JPEG's at the scale it is
    /// decoded at, a progressive JPEG's full size).
    ///
    /// - Throws: 413 `photo_too_large` over ``maximumBytes``, Imaging's size limits or
    ///   ``maximumDecodedPixels``; 415 `unsupported_photo_type`; 400 `invalid_photo` for a header
    ///   that cannot be read.
    static func check(_ bytes: [UInt8], field: String) throws(APIError) -> Int {
        guard bytes.count <= Self.maximumBytes else {
            throw APIError(
                status: 413, code: "photo_too_large",
                message: "\(field): the photo is \(bytes.count) bytes, over the limit of \(Self.maximumBytes)"
            )
        }
        guard let format = ImageFormat.sniff(bytes) else { throw notAnImage(field) }
        let decoder = ImageDecoder()
        do {
            let info = try decoder.info(bytes)
            try decoder.limits.check(width: info.width, height: info.height)
            let pixels = try decoder.decodedPixels(
                bytes, minimumWidth: min(info.width, variantWidths.last ?? 1))
            guard pixels <= maximumDecodedPixels else {
                throw APIError(
                    status: 413, code: "photo_too_large",
                    message:
                        "\(field): decoding this \(info.width)x\(info.height) \(format.rawValue.uppercased()) "
                        + "would hold \(megapixels(pixels)) megapixels, over the limit of "
                        + "\(megapixels(maximumDecodedPixels)) megapixels for one photo; send a smaller image"
                )
            }
            return pixels
        } catch let error as APIError {
            throw error
        } catch let error as ImageError {
            throw apiError(error, format: format, field: field)
        } catch {
            throw APIError.internalError("\(field): \(error)")
        }
    }

    /// A pixel count in megapixels: whole, or with one decimal (cut, not rounded).
    static func megapixels(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0 ? String(pixels / 1_000_000) : String(Double(pixels / 100_000) / 10)
    }

    private static func notAnImage(_ field: String) -> APIError {
        APIError(
            status: 415, code: "unsupported_photo_type",
            message: "\(field): the bytes are not a JPEG or PNG file (the type is read from the file, "
                + "not from what the client says); send a JPEG or PNG")
    }

    /// The answer for an Imaging error.
    private static func apiError(_ error: ImageError, format: ImageFormat, field: String) -> APIError {
        switch error.code {
        case .tooLarge, .memoryLimit:
            APIError(status: 413, code: "photo_too_large", message: "\(field): \(error.message)")
        case .tooManyScans:
            APIError(status: 413, code: "photo_too_costly", message: "\(field): \(error.message)")
        case .unsupported:
            APIError(status: 415, code: "unsupported_photo_type", message: "\(field): \(error.message)")
        default:
            APIError(
                status: 400, code: "invalid_photo",
                message:
                    "\(field): the \(format.rawValue.uppercased()) file cannot be decoded: \(error.message)")
        }
    }

    /// Checks, decodes and resizes `bytes`; `field` names the photo in errors
    /// (`attachments[1].data`).
    ///
    /// - Throws: 413 `photo_too_large` over ``maximumBytes`` or Imaging's size limits, 413
    ///   `photo_too_costly` for a JPEG of more scans than Imaging's limit, 415
    ///   `unsupported_photo_type` for bytes that are not a JPEG or PNG, 400 `invalid_photo` for
    ///   a file that does not decode (truncated, corrupt).
    init(_ bytes: [UInt8], field: String) throws(APIError) {
        guard bytes.count <= Self.maximumBytes else {
            throw APIError(
                status: 413, code: "photo_too_large",
                message: "\(field): the photo is \(bytes.count) bytes, over the limit of \(Self.maximumBytes)"
            )
        }
        guard let format = ImageFormat.sniff(bytes) else { throw Self.notAnImage(field) }
        let decoder = ImageDecoder()
        do {
            let info = try decoder.info(bytes)
            try decoder.limits.check(width: info.width, height: info.height)
            let largest = min(info.width, Self.variantWidths.last ?? info.width)
            let widths = Self.variantWidths.filter { $0 < largest } + [largest]
            func height(_ width: Int) -> Int {
                max(1, Int((Double(info.height) * Double(width) / Double(info.width)).rounded()))
            }
            var variants: [Variant] = []
            var pixels: PixelImage?
            if var image = try decoder.decodeKeepingTransparency(bytes) {
                // Transparency kept: RGBA PNG variants, each scaled from the next larger one.
                for width in widths.reversed() {
                    image = try image.scaled(toWidth: width, height: height(width))
                    variants.append(
                        Variant(width: width, height: image.height, file: try ImageEncoder.png(image)))
                    // The rendition carried inline is drawn over black (a placeholder, shown
                    // until the variant is drawn over the app's own background).
                    if pixels == nil {
                        pixels = image.composited(over: .init(red: 0, green: 0, blue: 0)).pixelImage()
                    }
                }
            } else {
                // A JPEG decodes at the smallest DCT scale still at least `largest` wide.
                var raster = try decoder.decode(bytes, minimumWidth: largest)
                for width in widths.reversed() {
                    raster = try raster.scaled(toWidth: width, height: height(width))
                    variants.append(
                        Variant(
                            width: width, height: raster.height,
                            file: try ImageEncoder.jpeg(raster, quality: Self.variantQuality)))
                    // The small rendition from the largest variant's pixels, in linear light.
                    if pixels == nil { pixels = raster.pixelImage() }
                }
            }
            self.format = format
            self.original = bytes
            self.width = info.width
            self.height = info.height
            self.variants = variants
            self.pixels =
                pixels ?? PixelImage(width: 1, height: 1, filledWith: .init(red: 0, green: 0, blue: 0))
        } catch {
            throw Self.apiError(error, format: format, field: field)
        }
    }
}
