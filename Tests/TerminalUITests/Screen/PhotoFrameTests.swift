import Foundation
import TerminalUI
import Testing

/// How photo cells reach the terminal in each image mode and color mode.
@MainActor
@Suite struct PhotoFrameTests {
    private func photo() throws -> RGBImage {
        try RGBImage(rows: [
            [RGBColor(red: 250, green: 10, blue: 10), RGBColor(red: 10, green: 250, blue: 10)],
            [RGBColor(red: 10, green: 10, blue: 250), RGBColor(red: 240, green: 240, blue: 240)],
        ])
    }

    private func frame(_ lines: [StyledLine], colorMode: ColorMode) -> String {
        let screen = Screen(size: TerminalSize(columns: 6, rows: 2), colorMode: colorMode)
        for (y, line) in lines.enumerated() { screen.buffer.put(line, x: 1, y: y) }
        return screen.commit().output
    }

    @Test(arguments: [ColorMode.trueColor, .palette256, .none])
    func kittyPlaceholders_carryTheirIDIn24BitColor_inEveryColorMode_withoutACursorMovePerCell(
        mode: ColorMode
    )
        throws
    {
        let lines = KittyGraphics.placeholderLines(id: 0x01_0203, columns: 3, rows: 1)
        let output = frame(lines, colorMode: mode)
        let cells = (0..<3).map { String(KittyGraphics.placeholderCell(row: 0, column: $0)) }.joined()
        #expect(output.contains("38;2;1;2;3m" + cells), "\(output.debugDescription)")
        #expect(!output.contains("38;5;"))
    }

    @Test func blocks_on256Colors_useThePaletteForBothHalves() throws {
        let output = frame(
            ImageMode.blocks.render(try photo(), maxColumns: 2, maxLines: 1), colorMode: .palette256)
        #expect(output.components(separatedBy: "▀").count - 1 == 2)
        #expect(output.contains("38;5;"))
        #expect(output.contains("48;5;"))
        #expect(!output.contains("38;2;"))
    }

    @Test func ascii_withColorOn_drawsRampCharactersAndNoColor() throws {
        let lines = ImageMode.ascii.render(try photo(), maxColumns: 2, maxLines: 1)
        let output = frame(lines, colorMode: .trueColor)
        #expect(!output.contains("▀"))
        #expect(!output.contains("38;2;"))
        #expect(lines.map(\.plainText) == [".%"], "dark red over blue, bright green over white")
    }

    @Test func blocks_withoutColor_keepTheShapeButSendNoColor() throws {
        let output = frame(ImageMode.blocks.render(try photo(), maxColumns: 2, maxLines: 1), colorMode: .none)
        #expect(output.components(separatedBy: "▀").count - 1 == 2)
        #expect(!output.contains("38;"))
        #expect(!output.contains("48;"))
        #expect(ImageMode.withoutGraphics(colorMode: .none) == .ascii)
        #expect(ImageMode.withoutGraphics(colorMode: .palette256) == .blocks)
    }
}
