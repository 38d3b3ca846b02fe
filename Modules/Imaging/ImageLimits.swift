/// The largest images a decoder accepts, checked against the file's header before any pixel
/// memory is allocated.
///
/// The defaults take any photo a phone or camera makes (a 48-megapixel phone photo is
/// 8064x6048) and refuse a "decompression bomb": a small file whose header promises an image
/// that would take gigabytes once decoded.
///
/// | Limit | Default | Why |
/// | --- | --- | --- |
/// | ``maxSide`` | 16,384 pixels | libpng's and browsers' customary bound on a side |
/// | ``maxPixels`` | 50,000,000 | 150 MB of RGB output at most |
/// | ``maxDecoderMemory`` | 384 MiB | libjpeg's working memory; a progressive JPEG keeps every coefficient |
/// | ``maxScans`` | 64 | a progressive JPEG is decoded again each scan; encoders write about ten |
public struct ImageLimits: Hashable, Sendable {
    /// The longest side, in pixels, of an image that may be decoded.
    public var maxSide: Int
    /// The most pixels (width times height) an image that may be decoded has.
    public var maxPixels: Int
    /// The most working memory, in bytes, libjpeg may allocate while decoding (the output is
    /// not counted).
    public var maxDecoderMemory: Int
    /// The most scans a progressive JPEG may have. Each scan makes libjpeg pass over every
    /// coefficient of the image again, so a small file of hundreds of scans costs seconds (704
    /// scans took 11.5 s); libjpeg's standard progression writes 10, optimizing encoders a few
    /// more.
    public var maxScans: Int

    /// Makes limits; the defaults are ``standard``.
    public init(
        maxSide: Int = 16_384, maxPixels: Int = 50_000_000, maxDecoderMemory: Int = 384 << 20,
        maxScans: Int = 64
    ) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxDecoderMemory = maxDecoderMemory
        self.maxScans = maxScans
    }

    /// 16,384 pixels a side, 50 megapixels, 384 MiB of decoder memory, 64 scans.
    public static let standard = ImageLimits()

    /// Throws ``ImageError/Code/tooLarge`` when an image of this size may not be decoded.
    public func check(width: Int, height: Int) throws(ImageError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= maxSide, height <= maxSide, !overflow, pixels <= maxPixels else {
            throw ImageError(
                .tooLarge,
                "image is \(width)x\(height); the limit is \(maxSide) pixels a side and "
                    + "\(Self.megapixels(maxPixels)) megapixels in all")
        }
    }

    /// A pixel count in megapixels, with one decimal when it is not whole.
    static func megapixels(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0
            ? String(pixels / 1_000_000) : String(Double(pixels / 100_000) / 10)
    }
}
