/// Draws an image as text: each cell shows two pixels stacked, as `▀` with the upper pixel
/// as its foreground color and the lower pixel as its background.
///
/// The image is scaled with a box filter (each target pixel is the area-weighted average of
/// the source pixels it covers, exact integer arithmetic) to the largest size that fits
/// `maxColumns` × `maxLines` cells with its aspect ratio kept; a cell holds two roughly square
/// pixels. With `ColorMode.none` there is no color to carry the picture, so each cell is a
/// character from a luminance ramp (` .:-=+*#%@`, dark to bright) instead; in headless plain
/// text those characters (or the `▀`s) are what appears.
///
/// Pure and `Sendable`: render off the UI actor and cache the lines.
///
/// ```swift
/// let lines = HalfBlockArt.render(photo, maxColumns: 40, maxLines: 12, colorMode: mode)
/// for (row, line) in lines.enumerated() { buffer.put(line, x: 2, y: top + row) }
/// ```
public enum HalfBlockArt {
    /// The upper half block.
    public static let upperHalfBlock: Character = "▀"
    /// The characters used without color, darkest first.
    public static let luminanceRamp: [Character] = Array(" .:-=+*#%@")

    /// The size in cells (columns, lines) the image is drawn at, and the pixel grid
    /// (width × height) it is scaled to. O(1).
    public static func layout(of image: RGBImage, maxColumns: Int, maxLines: Int) -> ArtLayout {
        let columnsLimit = max(maxColumns, 1)
        let rowsLimit = 2 * max(maxLines, 1)
        let width: Int
        let height: Int
        if columnsLimit * image.height <= rowsLimit * image.width {
            // The width limits: scale = columnsLimit / image.width.
            width = columnsLimit
            height = min(max((image.height * columnsLimit + image.width / 2) / image.width, 1), rowsLimit)
        } else {
            height = rowsLimit
            width = min(max((image.width * rowsLimit + image.height / 2) / image.height, 1), columnsLimit)
        }
        return ArtLayout(pixelWidth: width, pixelHeight: height)
    }

    /// What each cell of the art is.
    public enum Cells: Hashable, Sendable {
        /// `▀` with the upper pixel as foreground and the lower as background.
        case halfBlocks
        /// A ``HalfBlockArt/luminanceRamp`` character for the cell's two pixels, unstyled.
        case luminanceRamp
    }

    /// The image as lines of cells, at most `maxColumns` wide and `maxLines` tall: half blocks,
    /// or the luminance ramp when `colorMode` is `.none`.
    ///
    /// O(source pixels + target pixels) for downscaling.
    public static func render(_ image: RGBImage, maxColumns: Int, maxLines: Int, colorMode: ColorMode)
        -> [StyledLine]
    {
        render(
            image, maxColumns: maxColumns, maxLines: maxLines,
            cells: colorMode == .none ? .luminanceRamp : .halfBlocks)
    }

    /// The image as lines of `cells`, at most `maxColumns` wide and `maxLines` tall.
    ///
    /// O(source pixels + target pixels) for downscaling.
    public static func render(_ image: RGBImage, maxColumns: Int, maxLines: Int, cells: Cells) -> [StyledLine]
    {
        let layout = layout(of: image, maxColumns: maxColumns, maxLines: maxLines)
        let pixels = BoxFilter.scale(image, toWidth: layout.pixelWidth, height: layout.pixelHeight)
        var lines: [StyledLine] = []
        lines.reserveCapacity(layout.lines)
        for line in 0..<layout.lines {
            var styled = StyledLine()
            for x in 0..<layout.pixelWidth {
                let upper = pixels[(2 * line) * layout.pixelWidth + x]
                let lowerRow = 2 * line + 1
                let lower = lowerRow < layout.pixelHeight ? pixels[lowerRow * layout.pixelWidth + x] : nil
                switch cells {
                case .luminanceRamp:
                    let luminance = lower.map { (upper.luminance + $0.luminance) / 2 } ?? upper.luminance
                    let step = min(luminance * luminanceRamp.count / 256, luminanceRamp.count - 1)
                    styled.append(String(luminanceRamp[step]))
                case .halfBlocks:
                    styled.append(
                        String(upperHalfBlock), style: Style(foreground: upper, background: lower))
                }
            }
            lines.append(styled)
        }
        return lines
    }

    /// The size art is drawn at.
    public struct ArtLayout: Hashable, Sendable {
        /// Pixels across: also the number of columns.
        public let pixelWidth: Int
        /// Pixels down: two per line (the last line's lower half is empty when odd).
        public let pixelHeight: Int

        /// Columns taken.
        public var columns: Int { pixelWidth }
        /// Lines taken.
        public var lines: Int { (pixelHeight + 1) / 2 }
    }
}
