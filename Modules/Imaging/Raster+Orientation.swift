extension Raster {
    /// The raster turned and mirrored as `orientation` says, so that it shows upright.
    ///
    /// For orientations 5 through 8 the result's width is this raster's height. O(pixels).
    public func oriented(_ orientation: ExifOrientation) -> Raster {
        if orientation == .topLeft { return self }
        let outWidth = orientation.swapsSides ? height : width
        let outHeight = orientation.swapsSides ? width : height
        let sourceWidth = width
        let sourceHeight = height
        // Where the pixel shown at (x, y) is stored.
        let source: (Int, Int) -> (Int, Int) =
            switch orientation {
            case .topLeft: { x, y in (x, y) }
            case .topRight: { x, y in (sourceWidth - 1 - x, y) }
            case .bottomRight: { x, y in (sourceWidth - 1 - x, sourceHeight - 1 - y) }
            case .bottomLeft: { x, y in (x, sourceHeight - 1 - y) }
            case .leftTop: { x, y in (y, x) }
            case .rightTop: { x, y in (y, sourceHeight - 1 - x) }
            case .rightBottom: { x, y in (sourceWidth - 1 - y, sourceHeight - 1 - x) }
            case .leftBottom: { x, y in (sourceWidth - 1 - y, x) }
            }
        var bytes = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBufferPointer { input in
            bytes.withUnsafeMutableBufferPointer { output in
                var target = 0
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = source(x, y)
                        let from = (sy * sourceWidth + sx) * 3
                        output[target] = input[from]
                        output[target + 1] = input[from + 1]
                        output[target + 2] = input[from + 2]
                        target += 3
                    }
                }
            }
        }
        return Raster(unchecked: outWidth, height: outHeight, rgb: bytes)
    }
}
