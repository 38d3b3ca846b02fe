import TerminalUI
import Testing

@Suite struct HeadlessRendererTests {
    @Test func text_hasOneRightTrimmedLinePerRow() {
        var buffer = ScreenBuffer(width: 12, height: 4)
        buffer.put("Home", style: .plain.bold(), x: 0, y: 0)
        buffer.horizontalRule(y: 1, length: 4)
        buffer.put("漢字 ok  ", x: 2, y: 2)
        #expect(HeadlessRenderer.text(of: buffer) == "Home\n────\n  漢字 ok\n")
        #expect(HeadlessRenderer.lines(of: buffer).count == 4)
    }

    @Test func text_showsEmojiSequencesOnce() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        buffer.put("👨‍👩‍👧🇯🇵!", x: 0, y: 0)
        #expect(HeadlessRenderer.text(of: buffer) == "👨‍👩‍👧🇯🇵!")
    }
}
