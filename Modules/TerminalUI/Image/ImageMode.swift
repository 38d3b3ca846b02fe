/// How photos are drawn: the photo itself through the kitty graphics protocol, half-block
/// color art, or characters of a luminance ramp.
///
/// Every mode takes the same cells for the same photo (``HalfBlockArt/layout(of:maxColumns:maxLines:)``),
/// so a screen's layout does not depend on it.
///
/// ```swift
/// let lines = ImageMode.blocks.render(photo, maxColumns: 40, maxLines: 12)
/// ```
public enum ImageMode: Hashable, Sendable, CustomStringConvertible {
    /// The photo itself, as kitty Unicode placeholder cells; the registry sends the pixels.
    case kitty(KittyImageRegistry)
    /// Half-block art: `▀` cells with two pixels' colors (mapped to the palette, or dropped,
    /// by the frame's ``ColorMode``).
    case blocks
    /// Luminance-ramp characters (``HalfBlockArt/luminanceRamp``), whatever the color mode.
    case ascii

    /// The mode for a terminal without the kitty protocol in `colorMode`: ascii when there is
    /// no color, else blocks.
    public static func withoutGraphics(colorMode: ColorMode) -> ImageMode {
        colorMode == .none ? .ascii : .blocks
    }

    /// How many pixels across a column of art is worth drawing from: 8 for the kitty protocol,
    /// which shows the pixels themselves (a cell is about 8 by 16 of them), 1 for character art
    /// (one pixel a column, two a line). Rows follow in the same proportion.
    public var pixelsPerColumn: Int {
        switch self {
        case .kitty: 8
        case .blocks, .ascii: 1
        }
    }

    /// `image` drawn in this mode, at most `maxColumns` wide and `maxLines` tall.
    public func render(_ image: RGBImage, maxColumns: Int, maxLines: Int) -> [StyledLine] {
        switch self {
        case .kitty(let images): images.lines(for: image, maxColumns: maxColumns, maxLines: maxLines)
        case .blocks:
            HalfBlockArt.render(image, maxColumns: maxColumns, maxLines: maxLines, cells: .halfBlocks)
        case .ascii:
            HalfBlockArt.render(image, maxColumns: maxColumns, maxLines: maxLines, cells: .luminanceRamp)
        }
    }

    /// `kitty`, `blocks` or `ascii`.
    public var description: String {
        switch self {
        case .kitty: "kitty"
        case .blocks: "blocks"
        case .ascii: "ascii"
        }
    }
}
