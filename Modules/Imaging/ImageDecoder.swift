import MediaModel

/// Decodes JPEG and PNG files into upright ``Raster``s, within ``ImageLimits``.
///
/// ```swift
/// let decoder = ImageDecoder(background: theme.background)
/// let thumbnail = try decoder.thumbnail(bytes, width: 80)  // 80 pixels wide, upright
/// ```
///
/// The format comes from the first bytes (``ImageFormat/sniff(_:)``). A JPEG's Exif orientation
/// is applied, so every raster is as the photo is meant to be seen. A PNG's transparency is
/// composited over ``background``. The header is checked against ``limits`` before any pixel
/// memory is allocated. Every failure is an ``ImageError``.
public struct ImageDecoder: Sendable {
    /// The largest images this decoder accepts.
    public var limits: ImageLimits
    /// The color transparent pixels are composited over (the theme's background).
    public var background: PixelImage.Color

    /// Makes a decoder.
    public init(
        limits: ImageLimits = .standard, background: PixelImage.Color = .init(red: 0, green: 0, blue: 0)
    ) {
        self.limits = limits
        self.background = background
    }

    /// The format and upright size of an image, from its header alone.
    public func info(_ bytes: [UInt8]) throws(ImageError) -> ImageInfo {
        switch ImageFormat.sniff(bytes) {
        case .jpeg:
            let header = try JPEGCodec.header(bytes)
            let orientation = ExifOrientation.read(fromJPEG: bytes)
            return ImageInfo(
                format: .jpeg, storedWidth: header.width, storedHeight: header.height,
                orientation: orientation)
        case .png:
            let (width, height) = try PNGCodec.size(bytes)
            return ImageInfo(format: .png, storedWidth: width, storedHeight: height, orientation: .topLeft)
        case nil:
            throw ImageFormat.notAnImage(bytes)
        }
    }

    /// Decodes the whole image at full size, upright.
    public func decode(_ bytes: [UInt8]) throws(ImageError) -> Raster {
        let info = try info(bytes)
        return try decode(bytes, info: info, minimumWidth: info.width, minimumHeight: info.height)
    }

    /// Decodes a PNG with transparency (an alpha channel or a tRNS chunk) at full size keeping
    /// it: its colors as stored and its alpha, for a caller that composites later over a
    /// background it learns later (``TransparentRaster/composited(over:)``). `nil` for an image
    /// without transparency (every JPEG, an opaque PNG): ``decode(_:)`` gives the same pixels.
    public func decodeKeepingTransparency(_ bytes: [UInt8]) throws(ImageError) -> TransparentRaster? {
        let info = try info(bytes)
        guard info.format == .png, try PNGCodec.hasTransparency(bytes) else { return nil }
        try limits.check(width: info.width, height: info.height)
        return try PNGCodec.decodeRGBA(
            bytes, width: info.storedWidth, height: info.storedHeight, limits: limits)
    }

    /// Decodes the image at the smallest size the format can decode cheaply that is still at
    /// least `minimumWidth` x `minimumHeight` (upright), without decoding it at full size.
    ///
    /// A JPEG is decoded with libjpeg's DCT scaling at the smallest of 1/8, 2/8, ... 8/8 whose
    /// output is large enough: a 4000x3000 photo asked for at least 80 wide is decoded at 1/8,
    /// 500x375, reading a twelfth of the pixels' work and a sixty-fourth of the memory. A PNG
    /// has no such shortcut and is decoded at full size.
    public func decode(_ bytes: [UInt8], minimumWidth: Int, minimumHeight: Int = 1) throws(ImageError)
        -> Raster
    {
        try decode(bytes, info: info(bytes), minimumWidth: minimumWidth, minimumHeight: minimumHeight)
    }

    /// The image scaled to exactly `width` pixels wide (upright), its height following the
    /// aspect ratio (at least 1): a JPEG decoded at the smallest DCT scale that is at least that
    /// size, then brought to the exact size by ``Raster/scaled(toWidth:height:)``.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when `width` is outside 1...`limits.maxSide`,
    ///   or any decoding error.
    public func thumbnail(_ bytes: [UInt8], width: Int) throws(ImageError) -> Raster {
        guard (1...limits.maxSide).contains(width) else {
            throw ImageError(.invalidArgument, "thumbnail width \(width) is outside 1...\(limits.maxSide)")
        }
        let info = try info(bytes)
        let height = max(1, Int((Double(info.height) * Double(width) / Double(info.width)).rounded()))
        let draft = try decode(bytes, info: info, minimumWidth: width, minimumHeight: height, orient: false)
        // Scale before turning: fewer pixels to move.
        let (storedWidth, storedHeight) = info.orientation.swapsSides ? (height, width) : (width, height)
        return draft.resampled(width: storedWidth, height: storedHeight).oriented(info.orientation)
    }

    private func decode(
        _ bytes: [UInt8], info: ImageInfo, minimumWidth: Int, minimumHeight: Int, orient: Bool = true
    ) throws(ImageError) -> Raster {
        try limits.check(width: info.width, height: info.height)
        let raster: Raster
        switch info.format {
        case .jpeg:
            let header = try JPEGCodec.header(bytes)
            let (wantedWidth, wantedHeight) =
                info.orientation.swapsSides ? (minimumHeight, minimumWidth) : (minimumWidth, minimumHeight)
            let numerator = JPEGCodec.scaleNumerator(
                width: header.width, height: header.height, minimumWidth: wantedWidth,
                minimumHeight: wantedHeight)
            raster = try JPEGCodec.decode(bytes, header: header, numerator: numerator, limits: limits)
        case .png:
            raster = try PNGCodec.decode(
                bytes, width: info.storedWidth, height: info.storedHeight, limits: limits,
                background: background)
        }
        return orient ? raster.oriented(info.orientation) : raster
    }
}

/// What an image's header says: its format, size and orientation.
public struct ImageInfo: Hashable, Sendable {
    /// The file format.
    public var format: ImageFormat
    /// The width as stored in the file.
    public var storedWidth: Int
    /// The height as stored in the file.
    public var storedHeight: Int
    /// How the stored image must be turned to show upright (always ``ExifOrientation/topLeft`` for PNG).
    public var orientation: ExifOrientation

    /// Makes an info.
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: ExifOrientation) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
    }

    /// The width as shown, upright.
    public var width: Int { orientation.swapsSides ? storedHeight : storedWidth }
    /// The height as shown, upright.
    public var height: Int { orientation.swapsSides ? storedWidth : storedHeight }
}
