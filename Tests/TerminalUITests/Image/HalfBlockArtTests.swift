import TerminalUI
import Testing

@Suite struct HalfBlockArtTests {
    private let red = RGBColor(hex: 0xFF0000)
    private let green = RGBColor(hex: 0x00FF00)
    private let blue = RGBColor(hex: 0x0000FF)
    private let white = RGBColor(hex: 0xFFFFFF)
    private let black = RGBColor(hex: 0x000000)
    private let gray = RGBColor(hex: 0x808080)

    /// 2 × 4 pixels: rows red/green, blue/white, black/gray, white/black.
    private func knownImage() throws -> RGBImage {
        try RGBImage(rows: [[red, green], [blue, white], [black, gray], [white, black]])
    }

    @Test func render_atNativeSize_putsUpperPixelInForegroundAndLowerInBackground() throws {
        let lines = HalfBlockArt.render(try knownImage(), maxColumns: 2, maxLines: 2, colorMode: .trueColor)
        #expect(
            lines == [
                StyledLine([
                    StyledSpan("▀", style: Style(foreground: red, background: blue)),
                    StyledSpan("▀", style: Style(foreground: green, background: white)),
                ]),
                StyledLine([
                    StyledSpan("▀", style: Style(foreground: black, background: white)),
                    StyledSpan("▀", style: Style(foreground: gray, background: black)),
                ]),
            ])
    }

    @Test func render_withoutColor_usesTheLuminanceRamp() throws {
        let lines = HalfBlockArt.render(try knownImage(), maxColumns: 2, maxLines: 2, colorMode: .none)
        // Ramp " .:-=+*#%@", step = luminance * 10 / 256.
        // Column 0: red (54) + blue (18) → 36 → "."; black (0) + white (255) → 127 → "=".
        // Column 1: green (182) + white (255) → 218 → "%"; gray (128) + black (0) → 64 → ":".
        #expect(lines.map(\.plainText) == [".%", "=:"])
        #expect(lines.allSatisfy { $0.spans.allSatisfy { $0.style == .plain } })
    }

    @Test func render_downscalesWithABoxFilter() throws {
        // 4 × 4 of 2 × 2 blocks → 2 × 2 pixels (1 line): each pixel the average of its block.
        let image = try RGBImage(rows: [
            [red, red, white, black],
            [red, red, black, white],
            [black, black, blue, blue],
            [white, white, blue, blue],
        ])
        let lines = HalfBlockArt.render(image, maxColumns: 2, maxLines: 1, colorMode: .trueColor)
        let average = RGBColor(red: 128, green: 128, blue: 128)
        #expect(
            lines == [
                StyledLine([
                    StyledSpan("▀", style: Style(foreground: red, background: average)),
                    StyledSpan("▀", style: Style(foreground: average, background: blue)),
                ])
            ])
    }

    @Test func layout_keepsTheAspectRatio() throws {
        let wide = try RGBImage(width: 64, height: 32, rgb: Array(repeating: 0, count: 64 * 32 * 3))
        let layout = HalfBlockArt.layout(of: wide, maxColumns: 40, maxLines: 20)
        #expect(layout.columns == 40)
        #expect(layout.pixelHeight == 20)
        #expect(layout.lines == 10)
        let tall = try RGBImage(width: 10, height: 40, rgb: Array(repeating: 0, count: 10 * 40 * 3))
        let tallLayout = HalfBlockArt.layout(of: tall, maxColumns: 40, maxLines: 10)
        #expect(tallLayout.pixelHeight == 20)
        #expect(tallLayout.columns == 5)
    }

    @Test func render_oddPixelHeight_leavesTheLastLowerHalfDefault() throws {
        let image = try RGBImage(rows: [[red], [green], [blue]])
        let lines = HalfBlockArt.render(image, maxColumns: 1, maxLines: 2, colorMode: .palette256)
        #expect(lines.count == 2)
        #expect(lines[1] == StyledLine("▀", style: Style(foreground: blue)))
    }

    @Test func render_headless_showsTheCharacters() throws {
        var buffer = ScreenBuffer(width: 4, height: 2)
        for (row, line) in HalfBlockArt.render(
            try knownImage(), maxColumns: 2, maxLines: 2, colorMode: .trueColor
        ).enumerated() {
            buffer.put(line, x: 1, y: row)
        }
        #expect(HeadlessRenderer.lines(of: buffer) == [" ▀▀", " ▀▀"])
    }

    @Test func image_rejectsBytesThatDoNotMatchItsSize() {
        #expect(throws: RGBImage.InvalidSize.self) { try RGBImage(width: 2, height: 2, rgb: [1, 2, 3]) }
        do {
            _ = try RGBImage(width: 2, height: 1, rgb: [1, 2, 3])
            Issue.record("expected an error")
        } catch {
            #expect(
                error.message
                    == "a 2x1 RGB image needs 2*1*3 bytes, found 3; pass 3 bytes (red, green, blue) per pixel, row by row"
            )
        }
        #expect(throws: RGBImage.InvalidSize.self) { try RGBImage(rows: [[RGBColor(hex: 0)], []]) }
        #expect(throws: RGBImage.InvalidSize.self) { try RGBImage(width: 0, height: 1, rgb: []) }
    }
}
