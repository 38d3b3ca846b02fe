import TerminalUI
import Testing

@Suite struct TextEditBufferTests {
    @Test func insert_atTheCursor() {
        var text = TextEditBuffer("helo")
        text.moveLeft()
        text.insert("l")
        #expect(text.text == "hello")
        #expect(text.cursor == 4)
        #expect(text.characterCount == 5)
    }

    @Test func backspaceAndDelete_removeWholeGraphemes() {
        var text = TextEditBuffer("ae\u{301}👨‍👩‍👧🇯🇵")
        #expect(text.characterCount == 4)
        text.backspace()
        #expect(text.text == "ae\u{301}👨‍👩‍👧")
        text.moveToStart()
        text.moveRight()
        text.deleteForward()
        #expect(text.text == "a👨‍👩‍👧")
        text.moveToStart()
        text.backspace()
        #expect(text.text == "a👨‍👩‍👧")
        text.moveToEnd()
        text.deleteForward()
        #expect(text.text == "a👨‍👩‍👧")
    }

    @Test func insertingACombiningMark_joinsThePreviousLetter() {
        var text = TextEditBuffer("cafe")
        text.insert("\u{301}")
        #expect(text.text == "café")
        #expect(text.characterCount == 4)
        #expect(text.cursor == 4)
    }

    @Test func cursorColumn_countsDisplayWidth() {
        var text = TextEditBuffer("a漢👍🏽b")
        #expect(text.cursorColumn == 6)
        text.moveLeft()
        #expect(text.cursorColumn == 5)
        text.moveToStart()
        #expect(text.cursorColumn == 0)
    }

    @Test func handle_mapsEditingKeys() {
        var text = TextEditBuffer()
        for key: Key in [
            .character("a"), .character("c"), .left, .character("b"), .end, .character("d"), .home, .delete,
        ] {
            let handled = text.handle(key)
            #expect(handled, "\(key)")
        }
        #expect(text.text == "bcd")
        let enter = text.handle(.enter)
        let escape = text.handle(.escape)
        let clear = text.handle(.control("u"))
        #expect(!enter && !escape && clear)
        #expect(text.text.isEmpty)
    }

    @Test func limit_cutsInsertsToFit() {
        var text = TextEditBuffer("abc", limit: 5)
        text.insert("defg")
        #expect(text.text == "abcde")
        text.insert("x")
        #expect(text.text == "abcde")
        text.insert("\u{301}")  // would join "e" without adding a grapheme
        #expect(text.characterCount == 5)
    }

    @Test func singleLineLayout_scrollsToKeepTheCursorVisible() {
        var text = TextEditBuffer("abcdefghij")
        let end = text.singleLineLayout(width: 5, scroll: 0)
        #expect(end == TextEditBuffer.SingleLineLayout(visible: "ghij", cursorColumn: 4, scroll: 6))
        text.moveToStart()
        let start = text.singleLineLayout(width: 5, scroll: end.scroll)
        #expect(start == TextEditBuffer.SingleLineLayout(visible: "abcde", cursorColumn: 0, scroll: 0))
        text.moveRight()
        text.moveRight()
        #expect(text.singleLineLayout(width: 5, scroll: 6).cursorColumn == 0)
    }

    @Test func singleLineLayout_blanksAWideGraphemeCutByTheEdge() {
        let text = TextEditBuffer("a漢字")
        let layout = text.singleLineLayout(width: 4, scroll: 0)
        #expect(layout.scroll == 2)
        #expect(layout.visible == " 字")
        #expect(layout.cursorColumn == 3)
    }

    @Test func wrappedLayout_breaksAfterSpacesAndPlacesTheCursor() {
        var text = TextEditBuffer("hello big world")
        let layout = text.wrappedLayout(width: 9)
        #expect(layout.lines == ["hello big ", "world"])
        #expect(layout.cursor == Point(x: 5, y: 1))
        text.moveToStart()
        for _ in 0..<10 { text.moveRight() }  // just before "world": at the soft break
        #expect(text.wrappedLayout(width: 9).cursor == Point(x: 0, y: 1))
    }

    @Test func wrappedLayout_fullLastLine_putsTheCursorOnANewLine() {
        let text = TextEditBuffer("abcdef")
        let layout = text.wrappedLayout(width: 3)
        #expect(layout.lines == ["abc", "def", ""])
        #expect(layout.cursor == Point(x: 0, y: 2))
    }

    @Test func wrappedLayout_honorsLineBreaks() {
        var text = TextEditBuffer("ab\ncd")
        #expect(text.wrappedLayout(width: 10).lines == ["ab", "cd"])
        text.moveToStart()
        text.moveRight()
        text.moveRight()
        #expect(text.wrappedLayout(width: 10).cursor == Point(x: 2, y: 0))
        text.moveRight()
        #expect(text.wrappedLayout(width: 10).cursor == Point(x: 0, y: 1))
    }
}
