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
        layout(width: image.width, height: image.height, maxColumns: maxColumns, maxLines: maxLines)
    }

    /// The size in cells (columns, lines), and the pixel grid, that an image of `width` x
    /// `height` pixels is drawn at within `maxColumns` x `maxLines`: the same answer for a small
    /// rendition and the full photo when given the photo's true size, so art drawn from either
    /// takes the same cells. Sides below 1 count as 1. O(1).
    public static func layout(width imageWidth: Int, height imageHeight: Int, maxColumns: Int, maxLines: Int)
        -> ArtLayout
    {
        let imageWidth = max(imageWidth, 1)
        let imageHeight = max(imageHeight, 1)
        let columnsLimit = max(maxColumns, 1)
        let rowsLimit = 2 * max(maxLines, 1)
        let width: Int
        let height: Int
        if columnsLimit * imageHeight <= rowsLimit * imageWidth {
            // The width limits: scale = columnsLimit / imageWidth.
            width = columnsLimit
            height = min(max((imageHeight * columnsLimit + imageWidth / 2) / imageWidth, 1), rowsLimit)
        } else {
            height = rowsLimit
            width = min(max((imageWidth * rowsLimit + imageHeight / 2) / imageHeight, 1), columnsLimit)
        }
        return ArtLayout(pixelWidth: width, pixelHeight: height)
    }

    /// What each cell of the art is.
    public enum Cells: Hashable, Sendable {
        /// `▀` with the upper pixel as foreground and the lower as background.
        case halfBlocks
        /// A ``HalfBlockArt/luminanceRamp`` character for the cell's two pixels, unstyled.
        case luminanceRamp

        /// Half blocks, or the luminance ramp when `colorMode` is `.none`.
        public init(_ colorMode: ColorMode) {
            self = colorMode == .none ? .luminanceRamp : .halfBlocks
        }
    }

    /// The image as lines of cells, at most `maxColumns` wide and `maxLines` tall: half blocks,
    /// or the luminance ramp when `colorMode` is `.none`.
    ///
    /// O(source pixels + target pixels) for downscaling.
    public static func render(_ image: RGBImage, maxColumns: Int, maxLines: Int, colorMode: ColorMode)
        -> [StyledLine]
    {
        render(image, maxColumns: maxColumns, maxLines: maxLines, cells: Cells(colorMode))
    }

    /// The image as lines of `cells`, at most `maxColumns` wide and `maxLines` tall.
    ///
    /// O(source pixels + target pixels) for downscaling.
    public static func render(_ image: RGBImage, maxColumns: Int, maxLines: Int, cells: Cells) -> [StyledLine]
    {
        render(image, as: layout(of: image, maxColumns: maxColumns, maxLines: maxLines), cells: cells)
    }

    /// The image scaled (box filter) to exactly `layout`'s pixel grid and drawn as its lines.
    ///
    /// O(source pixels + target pixels).
    public static func render(_ image: RGBImage, as layout: ArtLayout, colorMode: ColorMode) -> [StyledLine] {
        render(image, as: layout, cells: Cells(colorMode))
    }

    /// The image scaled (box filter) to exactly `layout`'s pixel grid and drawn as lines of
    /// `cells`. O(source pixels + target pixels).
    public static func render(_ image: RGBImage, as layout: ArtLayout, cells: Cells) -> [StyledLine] {
        if image.width == layout.pixelWidth && image.height == layout.pixelHeight {
            return lines(ofGrid: image, cells: cells)
        }
        let pixels = BoxFilter.scale(image, toWidth: layout.pixelWidth, height: layout.pixelHeight)
        return lines(pixels, width: layout.pixelWidth, height: layout.pixelHeight, cells: cells)
    }

    /// A pixel grid already at its drawn size (one pixel a column, two a line) as lines of
    /// cells, without scaling: `grid.width` columns and `(grid.height + 1) / 2` lines.
    ///
    /// Use it for art scaled elsewhere (say, from a full photo, in linear light) and cached as
    /// pixels, styled for the color mode only when drawn. O(grid pixels).
    public static func lines(ofGrid grid: RGBImage, colorMode: ColorMode) -> [StyledLine] {
        lines(ofGrid: grid, cells: Cells(colorMode))
    }

    /// ``lines(ofGrid:colorMode:)`` drawn as `cells`. O(grid pixels).
    public static func lines(ofGrid grid: RGBImage, cells: Cells) -> [StyledLine] {
        var pixels: [RGBColor] = []
        pixels.reserveCapacity(grid.width * grid.height)
        var offset = 0
        for _ in 0..<(grid.width * grid.height) {
            pixels.append(
                RGBColor(red: grid.rgb[offset], green: grid.rgb[offset + 1], blue: grid.rgb[offset + 2]))
            offset += 3
        }
        return lines(pixels, width: grid.width, height: grid.height, cells: cells)
    }

    private static func lines(_ pixels: [RGBColor], width: Int, height: Int, cells: Cells)
        -> [StyledLine]
    {
        let lineCount = (height + 1) / 2
        var lines: [StyledLine] = []
        lines.reserveCapacity(lineCount)
        for line in 0..<lineCount {
            var styled = StyledLine()
            for x in 0..<width {
                let upper = pixels[(2 * line) * width + x]
                let lowerRow = 2 * line + 1
                let lower = lowerRow < height ? pixels[lowerRow * width + x] : nil
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
