extension ImageDecoder {
    /// How many pixels decoding `bytes` at least `minimumWidth` pixels wide (upright) holds,
    /// from the header alone: what a server budgets before it decodes anything.
    ///
    /// A PNG is decoded at full size. A baseline JPEG is decoded at the smallest DCT scale whose
    /// output is at least that wide (``decode(_:minimumWidth:minimumHeight:)``), so only that
    /// output counts. A progressive JPEG keeps every coefficient of the full image whatever the
    /// scale, so its full size counts. O(header).
    ///
    /// - Throws: what ``info(_:)`` throws.
    public func decodedPixels(_ bytes: [UInt8], minimumWidth: Int) throws(ImageError) -> Int {
        let info = try info(bytes)
        guard info.format == .jpeg else { return info.storedWidth * info.storedHeight }
        let header = try JPEGCodec.header(bytes)
        if header.progressive { return header.width * header.height }
        let height = max(
            1, Int((Double(info.height) * Double(minimumWidth) / Double(info.width)).rounded(.up)))
        let (wantedWidth, wantedHeight) =
            info.orientation.swapsSides ? (height, minimumWidth) : (minimumWidth, height)
        let numerator = JPEGCodec.scaleNumerator(
            width: header.width, height: header.height, minimumWidth: wantedWidth, minimumHeight: wantedHeight
        )
        return JPEGCodec.scaledSide(header.width, numerator) * JPEGCodec.scaledSide(header.height, numerator)
    }
}
