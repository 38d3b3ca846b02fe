/// Area-averaging image scaling in exact integer arithmetic.
enum BoxFilter {
    /// `image` scaled to `width` × `height` pixels, row by row.
    ///
    /// Target pixel (tx, ty) covers source columns [tx·W/w, (tx+1)·W/w) and rows likewise;
    /// each source pixel contributes in proportion to the overlap. Working in units of 1/w of
    /// a source pixel horizontally (1/h vertically) keeps every overlap an integer. Averages
    /// are rounded to nearest. O(W·H + w·h) for downscaling.
    static func scale(_ image: RGBImage, toWidth width: Int, height: Int) -> [RGBColor] {
        let sourceWidth = image.width
        let sourceHeight = image.height
        if width == sourceWidth && height == sourceHeight {
            return (0..<(width * height)).map { image.pixel(x: $0 % width, y: $0 / width) }
        }
        let columnSpans = spans(source: sourceWidth, target: width)
        let rowSpans = spans(source: sourceHeight, target: height)
        let area = sourceWidth * sourceHeight
        var result: [RGBColor] = []
        result.reserveCapacity(width * height)
        for rowWeights in rowSpans {
            for columnWeights in columnSpans {
                var red = 0
                var green = 0
                var blue = 0
                for (sy, wy) in rowWeights {
                    for (sx, wx) in columnWeights {
                        let weight = wx * wy
                        let offset = (sy * sourceWidth + sx) * 3
                        red += Int(image.rgb[offset]) * weight
                        green += Int(image.rgb[offset + 1]) * weight
                        blue += Int(image.rgb[offset + 2]) * weight
                    }
                }
                result.append(
                    RGBColor(
                        red: UInt8((red + area / 2) / area), green: UInt8((green + area / 2) / area),
                        blue: UInt8((blue + area / 2) / area)))
            }
        }
        return result
    }

    /// For each target index, the source indexes it overlaps and the overlap lengths, in
    /// units where a target pixel is `source` long and a source pixel `target` long (so the
    /// weights of one target pixel sum to `source`).
    private static func spans(source: Int, target: Int) -> [[(index: Int, weight: Int)]] {
        (0..<target).map { t in
            let start = t * source
            let end = (t + 1) * source
            var overlaps: [(index: Int, weight: Int)] = []
            var s = start / target
            while s * target < end && s < source {
                let overlap = min(end, (s + 1) * target) - max(start, s * target)
                if overlap > 0 { overlaps.append((s, overlap)) }
                s += 1
            }
            return overlaps
        }
    }
}
