import TerminalUI
import Testing

@Suite struct KeyParserTests {
    private func parse(_ text: String) -> [InputEvent] {
        var parser = KeyParser()
        return parser.parse(Array(text.utf8))
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[1;5A", .up),  // with a modifier parameter
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[7~", .home), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end),
        ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[Z", .backTab), ("\u{1B}OP", .function(1)), ("\u{1B}[15~", .function(5)),
        ("\u{1B}[24~", .function(12)), ("\r", .enter), ("\n", .enter), ("\u{1B}OM", .enter),
        ("\t", .tab), ("\u{7F}", .backspace), ("\u{08}", .backspace), ("\u{03}", .control("c")),
        ("\u{01}", .control("a")), ("\u{1A}", .control("z")), ("\u{00}", .control("@")),
        ("\u{1F}", .control("_")),
        ("q", .character("q")), (" ", .character(" ")), ("é", .character("é")), ("漢", .character("漢")),
        ("👍🏽", .character("👍🏽")),
    ])
    func parse_recognizesEachKey(bytes: String, expected: Key) {
        #expect(parse(bytes) == [.key(expected)], "\(bytes.debugDescription)")
    }

    @Test func parse_textBecomesOneEventPerGrapheme() {
        #expect(parse("hé漢👨‍👩‍👧") == ["h", "é", "漢", "👨‍👩‍👧"].map { .key(.character($0)) })
        #expect(parse("e\u{301}") == [.key(.character("e\u{301}"))])
    }

    @Test func parse_carriageReturnLineFeedIsOneEnter() {
        #expect(parse("a\r\nb") == [.key(.character("a")), .key(.enter), .key(.character("b"))])
        #expect(parse("\n\n") == [.key(.enter), .key(.enter)])
    }

    @Test func parse_focusInAndOut() {
        #expect(parse("\u{1B}[I\u{1B}[O") == [.focusGained, .focusLost])
    }

    @Test func parse_mixesKeysAndTextInOrder() {
        #expect(
            parse("ab\u{1B}[Ac\r") == [
                .key(.character("a")), .key(.character("b")), .key(.up), .key(.character("c")), .key(.enter),
            ])
    }

    @Test func parse_sequenceSplitAcrossReads_waitsForTheRest() {
        var parser = KeyParser()
        #expect(parser.parse([0x1B]).isEmpty)
        #expect(parser.isAwaitingMore)
        #expect(parser.parse(Array("[".utf8)).isEmpty)
        #expect(parser.parse(Array("5".utf8)).isEmpty)
        #expect(parser.parse(Array("~x".utf8)) == [.key(.pageUp), .key(.character("x"))])
        #expect(!parser.isAwaitingMore)
    }

    @Test func parse_utf8SplitAcrossReads_waitsForTheRest() {
        var parser = KeyParser()
        let bytes = Array("漢".utf8)
        #expect(parser.parse(bytes[0..<1]).isEmpty)
        #expect(parser.parse(bytes[1..<2]).isEmpty)
        #expect(parser.parse(bytes[2..<3]) == [.key(.character("漢"))])
        #expect(!parser.isAwaitingMore)
    }

    @Test func parse_invalidUTF8_becomesReplacementCharacters() {
        var parser = KeyParser()
        #expect(
            parser.parse([0x61, 0xFF, 0x62]) == [
                .key(.character("a")), .key(.character("\u{FFFD}")), .key(.character("b")),
            ])
        #expect(parser.parse([0xC3, 0x41]) == [.key(.character("\u{FFFD}")), .key(.character("A"))])
    }

    @Test func escapeAlone_isReportedOnFlush() {
        var parser = KeyParser()
        #expect(parser.parse([0x1B]).isEmpty)
        #expect(parser.flush() == [.key(.escape)])
        #expect(parser.flush().isEmpty)
        #expect(!parser.isAwaitingMore)
    }

    @Test func escapeFollowedByAnOrdinaryByte_isEscapeThenTheByte() {
        #expect(parse("\u{1B}j") == [.key(.escape), .key(.character("j"))])
        #expect(parse("\u{1B}\u{1B}[A") == [.key(.escape), .key(.up)])
    }

    @Test func unfinishedSequence_onFlush_isEscapeThenText() {
        var parser = KeyParser()
        #expect(parser.parse(Array("\u{1B}[".utf8)).isEmpty)
        #expect(parser.flush() == [.key(.escape), .key(.character("["))])
    }

    @Test func unknownSequences_areDroppedWhole() {
        #expect(parse("\u{1B}[99xa") == [.key(.character("a"))])
        #expect(parse("\u{1B}[?1;2cb") == [.key(.character("b"))])
    }

    @Test func bracketedPaste_isOneEventWithNormalizedLineBreaks() {
        #expect(
            parse("\u{1B}[200~hello\r\nworld\r!\u{1B}[201~x") == [
                .paste("hello\nworld\n!"), .key(.character("x")),
            ])
        #expect(parse("\u{1B}[200~\u{1B}[A\t\u{1B}[201~") == [.paste("\u{1B}[A\t")])
    }

    @Test func bracketedPaste_splitAcrossReads_includingTheTerminator() {
        var parser = KeyParser()
        let bytes = Array("\u{1B}[200~漢字 paste\u{1B}[201~".utf8)
        var events: [InputEvent] = []
        for byte in bytes {
            events += parser.parse([byte])
            #expect(!parser.isAwaitingMore || events.isEmpty)
        }
        #expect(events == [.paste("漢字 paste")])
        #expect(!parser.isInPaste)
    }

    @Test func bracketedPaste_ofShortcutsLineBreaksAndEscapes_isOnePasteAtEverySplit() {
        // Letters and digits that are shortcuts, Enter, Escape and an arrow: all text in a paste.
        let stream = Array("\u{1B}[200~first line\rl\rq 2\u{1B}\u{1B}[A\u{1A}\u{1B}[201~j".utf8)
        let expected: [InputEvent] = [
            .paste("first line\nl\nq 2\u{1B}\u{1B}[A\u{1A}"), .key(.character("j")),
        ]
        for cut in 0..<stream.count {
            var parser = KeyParser()
            let events = parser.parse(stream[..<cut]) + parser.parse(stream[cut...]) + parser.flush()
            #expect(events == expected, "cut at \(cut)")
        }
        var bytewise = KeyParser()
        #expect(stream.flatMap { bytewise.parse([$0]) } == expected)
    }

    @Test func controlZ_isItsOwnKey_outsideAPaste() {
        #expect(parse("a\u{1A}b") == [.key(.character("a")), .key(.control("z")), .key(.character("b"))])
    }

    @Test func everySplitOfAStream_givesTheSameEvents() {
        let stream = Array("a\u{1B}[Aé\u{1B}[200~p\u{1B}[201~\u{1B}[3~\u{1B}OP漢\r\n\u{1B}[I".utf8)
        let whole = parse(String(decoding: stream, as: UTF8.self))
        for cut in 1..<stream.count {
            var parser = KeyParser()
            let events = parser.parse(stream[..<cut]) + parser.parse(stream[cut...])
            #expect(events == whole, "cut at \(cut)")
        }
        #expect(whole.count == 9)
    }

    @Test func keyDescriptions_areReadable() {
        #expect(Key.control("c").description == "ctrl-c")
        #expect(Key.pageDown.description == "pagedown")
        #expect(InputEvent.resize(TerminalSize(columns: 80, rows: 24)).description == "resize(80x24)")
    }
}
