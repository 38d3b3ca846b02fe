import TerminalUI
import Testing

@Suite struct ScreenBufferTests {
    @Test func put_writesGraphemesWithTheirStyle() {
        var buffer = ScreenBuffer(width: 10, height: 2)
        let bold = Style.plain.bold()
        let end = buffer.put("hi", style: bold, x: 1, y: 0)
        #expect(end == 3)
        #expect(buffer[1, 0] == Cell("h", style: bold))
        #expect(buffer[2, 0] == Cell("i", style: bold))
        #expect(buffer[0, 0] == .blank)
    }

    @Test func put_wideGraphemeTakesTwoCells() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.put("a漢b", x: 0, y: 0)
        #expect(buffer[1, 0] == Cell("漢", width: 2))
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[3, 0] == Cell("b"))
        #expect(HeadlessRenderer.lines(of: buffer) == ["a漢b"])
    }

    @Test func put_clipsAtTheRightEdgeWithoutStraddling() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        buffer.put("ab漢", x: 1, y: 0)
        // 漢 would need columns 3 and 4; only 3 exists, so it shows as a blank.
        #expect(HeadlessRenderer.lines(of: buffer) == [" ab"])
        #expect(buffer[3, 0] == Cell(" "))
    }

    @Test func put_clipsToTheClipRect() {
        var buffer = ScreenBuffer(width: 10, height: 3)
        buffer.put("abcdefgh", x: 0, y: 1, clip: Rect(x: 2, y: 1, width: 3, height: 1))
        buffer.put("outside", x: 0, y: 0, clip: Rect(x: 0, y: 1, width: 10, height: 1))
        #expect(HeadlessRenderer.lines(of: buffer) == ["", "  cde", ""])
    }

    @Test func put_atANegativeColumnShowsTheTail() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.put("漢abc", x: -1, y: 0)
        #expect(HeadlessRenderer.lines(of: buffer) == [" abc"])
    }

    @Test func put_overHalfOfAWideGraphemeBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.put("漢字", x: 0, y: 0)
        buffer.put("x", x: 1, y: 0)  // right half of 漢
        buffer.put("y", x: 2, y: 0)  // left half of 字
        #expect(HeadlessRenderer.lines(of: buffer) == [" xy"])
        #expect(buffer[0, 0] == Cell(" "))
        #expect(buffer[3, 0] == Cell(" "))
        #expect(!buffer.cells.contains { $0.isContinuation })
    }

    @Test func put_skipsZeroWidthGraphemes() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.put("a\tb\u{200B}c", x: 0, y: 0)
        #expect(HeadlessRenderer.lines(of: buffer) == ["abc"])
    }

    @Test func fill_andHorizontalRule_coverTheirArea() {
        var buffer = ScreenBuffer(width: 6, height: 3)
        buffer.fill(Rect(x: 1, y: 0, width: 2, height: 2), with: "#")
        buffer.horizontalRule(y: 2, x: 1, length: 3)
        #expect(HeadlessRenderer.lines(of: buffer) == [" ##", " ##", " ───"])
        buffer.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: "漢")
        #expect(HeadlessRenderer.lines(of: buffer)[0] == "漢漢")
    }

    @Test func clear_blanksEveryCellInTheStyle() {
        var buffer = ScreenBuffer(width: 3, height: 2)
        buffer.put("abc", x: 0, y: 0)
        let background = Style.plain.withBackground(RGBColor(hex: 0x112233))
        buffer.clear(style: background)
        #expect(buffer.cells.allSatisfy { $0 == Cell(" ", style: background) })
    }

    @Test func putTruncated_endsWithAnEllipsis() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        buffer.putTruncated("a long title", in: Rect(x: 0, y: 0, width: 6, height: 1))
        #expect(HeadlessRenderer.lines(of: buffer) == ["a lon…"])
    }

    @Test func draw_copiesAnotherBuffer() {
        var art = ScreenBuffer(width: 3, height: 1)
        art.put("漢x", x: 0, y: 0)
        var buffer = ScreenBuffer(width: 5, height: 2)
        buffer.draw(art, x: 2, y: 1)
        #expect(HeadlessRenderer.lines(of: buffer) == ["", "  漢x"])
    }

    @Test func rect_splitsAndIntersects() {
        let rect = Rect(x: 0, y: 1, width: 10, height: 5)
        #expect(rect.splitTop(2).top == Rect(x: 0, y: 1, width: 10, height: 2))
        #expect(rect.splitTop(2).rest == Rect(x: 0, y: 3, width: 10, height: 3))
        #expect(rect.splitBottom(1).bottom == Rect(x: 0, y: 5, width: 10, height: 1))
        #expect(
            rect.intersection(Rect(x: 8, y: 0, width: 5, height: 3)) == Rect(x: 8, y: 1, width: 2, height: 2))
        #expect(rect.intersection(Rect(x: 20, y: 0, width: 1, height: 1)).isEmpty)
        #expect(rect.inset(columns: 1, lines: 1) == Rect(x: 1, y: 2, width: 8, height: 3))
    }
}
