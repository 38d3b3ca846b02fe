import Basics
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct TextLayoutTests {
    @Test func wrap_breaksAtSpacesAndDropsThem() {
        #expect(
            TextLayout.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
    }

    @Test func wrap_keepsTextThatFitsOnOneLine() {
        #expect(TextLayout.wrap("short", width: 10) == ["short"])
        #expect(TextLayout.wrap("exactly10!", width: 10) == ["exactly10!"])
    }

    @Test func wrap_hardBreaksWordsLongerThanTheWidth() {
        #expect(TextLayout.wrap("abcdefghijkl xy", width: 5) == ["abcde", "fghij", "kl xy"])
    }

    @Test func wrap_keepsSpacesInsideALine() {
        #expect(TextLayout.wrap("a  b   c", width: 20) == ["a  b   c"])
    }

    @Test func wrap_startsParagraphsAtLineBreaks() {
        #expect(TextLayout.wrap("one\ntwo three\n\nfour", width: 5) == ["one", "two", "three", "", "four"])
        #expect(TextLayout.wrap("a\r\nb", width: 5) == ["a", "b"])
    }

    @Test func wrap_emptyTextIsOneEmptyLine() {
        #expect(TextLayout.wrap("", width: 5) == [""])
        #expect(TextLayout.wrap("   ", width: 5) == [""])
    }

    @Test func wrap_keepsIndentationWhenTheFirstWordFits() {
        #expect(TextLayout.wrap("  hi there", width: 5) == ["  hi", "there"])
        #expect(TextLayout.wrap("    hello", width: 6) == ["hello"])
    }

    @Test func wrap_neverLetsAWideGraphemeStraddleTheEdge() {
        // 漢 is 2 columns: "a漢字" is 5 columns, so at width 4 字 moves to the next line.
        #expect(TextLayout.wrap("a漢字b", width: 4) == ["a漢", "字b"])
        #expect(TextLayout.wrap("漢字かな", width: 3) == ["漢", "字", "か", "な"])
    }

    @Test func wrap_neverSplitsAGrapheme() {
        let family = "👨‍👩‍👧"
        let lines = TextLayout.wrap("ab\(family)cd", width: 3)
        #expect(lines == ["ab", "\(family)c", "d"])
        #expect(TextLayout.wrap("e\u{301}e\u{301}e\u{301}", width: 2) == ["e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func wrap_leavesOutWideGraphemesAtWidthOne() {
        #expect(TextLayout.wrap("a漢b", width: 1) == ["a", "b"])
    }

    @Test func wrap_everyLineFitsTheWidth_randomText() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "bc", " ", "  ", "漢", "👍🏽", "e\u{301}", "word", "\n", "🇯🇵"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                pieces.randomElement(using: &random) ?? ""
            }
            .joined()
            let width = Int.random(in: 1...12, using: &random)
            let lines = TextLayout.wrap(text, width: width)
            #expect(
                lines.allSatisfy { $0.displayWidth <= width },
                "seed \(seed): \(text.debugDescription) at \(width)")
            // Nothing but spaces and unshowable wide graphemes is lost.
            let kept = lines.joined().filter { $0 != " " }
            let original = text.filter { $0 != " " && $0 != "\n" && (width > 1 || $0.displayWidth < 2) }
            #expect(kept == original, "seed \(seed): \(text.debugDescription) at \(width)")
        }
    }

    @Test func wrapStyledLine_keepsEachGraphemesStyle() {
        let bold = Style.plain.bold()
        let line = StyledLine([StyledSpan("hello ", style: bold), StyledSpan("big world")])
        let lines = TextLayout.wrap(line, width: 9)
        #expect(
            lines == [
                StyledLine([StyledSpan("hello ", style: bold), StyledSpan("big")]), StyledLine("world"),
            ])
    }

    @Test func truncate_addsAnEllipsisWhenCut() {
        #expect(TextLayout.truncate("a long caption", width: 8) == "a long …")
        #expect(TextLayout.truncate("fits", width: 4) == "fits")
        #expect(TextLayout.truncate("漢字かな", width: 6) == "漢字…")
        #expect(TextLayout.truncate("漢字かな", width: 5) == "漢字…")
        #expect(TextLayout.truncate("abc", width: 0) == "")
        #expect(TextLayout.truncate("abcdef", width: 4, ellipsis: "...") == "a...")
        #expect(TextLayout.truncate("abcdef", width: 2, ellipsis: "...") == "ab")
    }

    @Test func truncateStyledLine_endsInTheLastKeptStyle() {
        let red = Style.plain.withForeground(RGBColor(hex: 0xFF0000))
        let line = StyledLine([StyledSpan("ab"), StyledSpan("cdef", style: red)])
        #expect(
            TextLayout.truncate(line, width: 4)
                == StyledLine([StyledSpan("ab"), StyledSpan("c…", style: red)]))
        #expect(TextLayout.truncate(line, width: 6) == line)
    }

    @Test func truncateKeepingATail_cutsTheHeadSoTheTailShowsWhole() {
        let name = StyledLine("潮見灯台守潮見灯台守")
        let handle = StyledLine("  @kaito")
        // 16 columns: 8 for the handle, 7 for three wide characters and the ellipsis
        #expect(TextLayout.truncate(name, keeping: handle, width: 16).description == "潮見灯…  @kaito")
        #expect(TextLayout.truncate(name, keeping: handle, width: 28).description == "潮見灯台守潮見灯台守  @kaito")
        // no room for the head: the tail alone; a tail wider than the width is cut from the end
        #expect(TextLayout.truncate(name, keeping: handle, width: 8).description == "  @kaito")
        #expect(TextLayout.truncate(name, keeping: handle, width: 6).description == "潮見…")
    }
}
