import CImageCodecs

/// The Swift side of the C layer's JPEG calls: header, scaled decode, encode.
enum JPEGCodec {
    /// What a JPEG file's header says.
    struct Header {
        var width: Int
        var height: Int
        var color: Int32
        var progressive: Bool
    }

    static func header(_ bytes: [UInt8]) throws(ImageError) -> Header {
        var header = cic_jpeg_header()
        var status = cic_status()
        bytes.withUnsafeBufferPointer { data in
            _ = cic_jpeg_read_header(data.baseAddress, data.count, &header, &status)
        }
        try check(status)
        guard header.width >= 1, header.height >= 1 else {
            throw ImageError(.corrupt, "JPEG header gives an empty image (\(header.width)x\(header.height))")
        }
        if header.color == Int32(CIC_JPEG_CMYK.rawValue) {
            throw ImageError(
                .unsupported,
                "CMYK JPEGs are not supported; save the photo as an RGB (sRGB) JPEG and try again")
        }
        return Header(
            width: Int(header.width), height: Int(header.height), color: header.color,
            progressive: header.progressive != 0)
    }

    /// The smallest numerator M of libjpeg's DCT scales M/8 (1...8) whose output is at least
    /// `minimumWidth` x `minimumHeight`; 8 (full size) when none smaller is.
    static func scaleNumerator(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int) -> Int {
        for numerator in 1..<8
        where scaledSide(width, numerator) >= minimumWidth && scaledSide(height, numerator) >= minimumHeight {
            return numerator
        }
        return 8
    }

    /// libjpeg's output side at scale M/8: the side times M/8, rounded up.
    static func scaledSide(_ side: Int, _ numerator: Int) -> Int {
        (side * numerator + 7) / 8
    }

    /// Decodes at scale `numerator`/8; the header has been read and checked against the limits.
    static func decode(
        _ bytes: [UInt8], header: Header, numerator: Int, limits: ImageLimits
    ) throws(ImageError) -> Raster {
        let width = scaledSide(header.width, numerator)
        let height = scaledSide(header.height, numerator)
        let count = width * height * 3
        var status = cic_status()
        let rgb = bytes.withUnsafeBufferPointer { data in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                _ = cic_jpeg_decode(
                    data.baseAddress, data.count, Int32(numerator), UInt32(width), UInt32(height),
                    limits.maxDecoderMemory, Int32(clamping: limits.maxScans), buffer.baseAddress, count,
                    &status)
                // Every byte is written on success; on failure the array is discarded below.
                initialized = status.code == Int32(CIC_OK.rawValue) ? count : 0
            }
        }
        try check(status, limits: limits)
        return Raster(unchecked: width, height: height, rgb: rgb)
    }

    static func encode(
        _ pixels: [UInt8], width: Int, height: Int, components: Int, quality: Int, progressive: Bool,
        grayscale: Bool
    ) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw ImageError(.invalidArgument, "JPEG quality \(quality) is outside 1...100")
        }
        guard width <= 65_500, height <= 65_500 else {
            throw ImageError(
                .invalidArgument, "a JPEG is at most 65500 pixels a side; this image is \(width)x\(height)")
        }
        var status = cic_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        pixels.withUnsafeBufferPointer { data in
            _ = cic_jpeg_encode(
                data.baseAddress, data.count, UInt32(width), UInt32(height), Int32(components),
                Int32(quality),
                progressive ? 1 : 0, grayscale ? 1 : 0, &output, &size, &status)
        }
        defer { cic_free(output) }
        try check(status)
        guard let output else { throw ImageError(.invalidArgument, "the JPEG encoder returned no data") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Throws the error a C status describes, if it is one.
    static func check(_ status: cic_status, limits: ImageLimits = .standard) throws(ImageError) {
        let message = CodecStatus.message(status)
        switch UInt32(status.code) {
        case CIC_OK.rawValue: return
        case CIC_ERROR_TRUNCATED.rawValue: throw ImageError(.truncated, "JPEG file ends early (truncated)")
        case CIC_ERROR_UNSUPPORTED.rawValue:
            throw ImageError(
                .unsupported,
                "CMYK JPEGs are not supported; save the photo as an RGB (sRGB) JPEG and try again")
        case CIC_ERROR_MEMORY_LIMIT.rawValue:
            throw ImageError(
                .memoryLimit,
                "decoding this JPEG needs more than \(limits.maxDecoderMemory >> 20) MiB of working memory "
                    + "(libjpeg: \(message)); save it as a baseline (not progressive) JPEG or make it smaller"
            )
        case CIC_ERROR_TOO_MANY_SCANS.rawValue:
            throw ImageError(
                .tooManyScans,
                "the progressive JPEG has more than \(limits.maxScans) scans, the limit; save it as a baseline "
                    + "(not progressive) JPEG and try again")
        case CIC_ERROR_ARGUMENT.rawValue: throw ImageError(.invalidArgument, "JPEG codec: \(message)")
        default: throw ImageError(.corrupt, "JPEG data is damaged (libjpeg: \(message))")
        }
    }
}

/// Reading the C layer's status.
enum CodecStatus {
    /// The zero-terminated message of a status.
    static func message(_ status: cic_status) -> String {
        withUnsafeBytes(of: status.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
