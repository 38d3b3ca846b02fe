/// Encodes ``Raster``s as JPEG or PNG files (for stored variants of a photo, and for tests).
public enum ImageEncoder {
    /// The raster as a JPEG file.
    ///
    /// - Parameters:
    ///   - raster: the pixels to encode.
    ///   - quality: libjpeg's quality, 1...100 (85 keeps photos clean at a fraction of the size).
    ///   - progressive: a progressive file (shows coarse-to-fine while loading, usually smaller).
    ///   - grayscale: store one gray channel instead of color.
    /// - Throws: ``ImageError/Code/invalidArgument`` for a quality outside 1...100 or a side over
    ///   65,500 (the JPEG format's limit).
    public static func jpeg(
        _ raster: Raster, quality: Int = 85, progressive: Bool = false, grayscale: Bool = false
    ) throws(ImageError) -> [UInt8] {
        try JPEGCodec.encode(
            raster.rgb, width: raster.width, height: raster.height, components: 3, quality: quality,
            progressive: progressive, grayscale: grayscale)
    }

    /// The raster as an 8-bit RGB PNG file (lossless).
    public static func png(_ raster: Raster) throws(ImageError) -> [UInt8] {
        try PNGCodec.encode(raster)
    }

    /// The image as an 8-bit RGBA PNG file (lossless, its transparency kept).
    public static func png(_ image: TransparentRaster) throws(ImageError) -> [UInt8] {
        try PNGCodec.encode(image)
    }
}
