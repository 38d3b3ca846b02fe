import MediaModel

extension Raster {
    /// The raster as a `PixelImage` (what the terminal draws), scaled down with
    /// ``scaled(toWidth:height:)`` to fit `maxSide` (at most `PixelImage.maxSide`) if it is larger,
    /// keeping its aspect ratio; each side is at least 1.
    public func pixelImage(maxSide: Int = PixelImage.maxSide) -> PixelImage {
        let side = min(max(maxSide, 1), PixelImage.maxSide)
        var fitted = self
        if width > side || height > side {
            let (newWidth, newHeight) =
                width >= height
                ? (side, max(1, Int((Double(height) * Double(side) / Double(width)).rounded())))
                : (max(1, Int((Double(width) * Double(side) / Double(height)).rounded())), side)
            fitted = resampled(width: newWidth, height: newHeight)
        }
        do {
            return try PixelImage(width: fitted.width, height: fitted.height, rgb: fitted.rgb)
        } catch {
            // Unreachable: both sides are within 1...PixelImage.maxSide and the byte count matches.
            return PixelImage(
                width: fitted.width, height: fitted.height, filledWith: .init(red: 0, green: 0, blue: 0))
        }
    }
}
