import TerminalUI
import Testing

@MainActor
@Suite struct TextFieldTests {
    private func render(_ field: TextField, width: Int, height: Int = 1) -> (lines: [String], cursor: Point?)
    {
        var buffer = ScreenBuffer(width: width, height: height)
        let cursor = field.draw(into: &buffer, in: buffer.bounds)
        return (HeadlessRenderer.lines(of: buffer), cursor)
    }

    @Test func typing_editsAndCountsCharacters() {
        let field = TextField(limit: 280)
        for character in "hi 漢" { field.handle(.key(.character(character))) }
        field.handle(.key(.backspace))
        field.handle(.key(.character("字")))
        #expect(field.text == "hi 字")
        #expect(field.characterCount == 4)
        #expect(!field.handle(.key(.enter)))
        #expect(!field.handle(.focusLost))
    }

    @Test func emptyField_showsThePlaceholder() {
        let field = TextField(placeholder: "What's new?")
        let (lines, cursor) = render(field, width: 20)
        #expect(lines == ["What's new?"])
        #expect(cursor == Point(x: 0, y: 0))
    }

    @Test func singleLine_scrollsHorizontally() {
        let field = TextField(text: "the quick brown fox")
        let (lines, cursor) = render(field, width: 8)
        #expect(lines == ["own fox"])
        #expect(cursor == Point(x: 7, y: 0))
        field.handle(.key(.home))
        #expect(render(field, width: 8) == (["the quic"], Point(x: 0, y: 0)))
    }

    @Test func paste_inSingleLineModeTurnsLineBreaksIntoSpaces() {
        let field = TextField()
        field.handle(.paste("a\nb"))
        #expect(field.text == "a b")
        let wrapped = TextField(mode: .wrapped(maxLines: 3))
        wrapped.handle(.paste("a\nb"))
        #expect(wrapped.text == "a\nb")
    }

    @Test func wrapped_showsLinesAndScrollsToTheCursor() {
        let field = TextField(text: "one two three four five", mode: .wrapped(maxLines: 2))
        #expect(field.height(forWidth: 9) == 2)
        let (lines, cursor) = render(field, width: 9, height: 2)
        // Lines: "one two ", "three ", "four five", and a new line for the cursor after the
        // full last line; the last two are shown.
        #expect(lines == ["four five", ""])
        #expect(cursor == Point(x: 0, y: 1))
        field.handle(.key(.home))
        #expect(render(field, width: 9, height: 2) == (["one two", "three"], Point(x: 0, y: 0)))
    }
}
