import MutationTesting
import Testing

@Suite struct SwiftLexerTests {
    private func kinds(_ source: String) -> [String] {
        SwiftLexer.tokens(of: source).map { "\($0.kind):\($0.text)" }
    }

    @Test func lineAndBlockComments_areSingleTokens() {
        let source = """
            a < b // x < y
            /* one /* nested < */ still comment == */ c
            /// doc 1 + 1
            """
        #expect(
            kinds(source) == [
                "identifier:a", "operator:<", "identifier:b", "comment:// x < y",
                "comment:/* one /* nested < */ still comment == */", "identifier:c", "comment:/// doc 1 + 1",
            ])
    }

    @Test func stringsWithInterpolationAndEscapes_areSingleTokens() {
        let source = #"let s = "a \"<\" \(x + "(") b" + 1"#
        #expect(
            kinds(source) == [
                "identifier:let", "identifier:s", "operator:=", #"string:"a \"<\" \(x + "(") b""#,
                "operator:+",
                "number:1",
            ])
    }

    @Test func rawAndMultilineStrings_areSingleTokens() {
        let source = """
            x = #"raw " == \\(no) \\#(y < 2)"# == ##"a"#b"##
            y = \"\"\"
                line < 1
                \\(z)"
                \"\"\"
            """
        let tokens = SwiftLexer.tokens(of: source)
        #expect(
            tokens.map(\.kind) == [
                .identifier, .operator, .string, .operator, .string, .identifier, .operator, .string,
            ])
        #expect(tokens[2].text == ##"#"raw " == \(no) \#(y < 2)"#"##)
        #expect(tokens[4].text == ###"##"a"#b"##"###)
        #expect(tokens[5].line == 2)
    }

    @Test func numbersRangesAndMembers_splitWhereSwiftDoes() {
        #expect(
            kinds("0..<n 1...2 x.0 1.5 0x1.0p-53 1_000")
                == [
                    "number:0", "operator:..<", "identifier:n", "number:1", "operator:...", "number:2",
                    "identifier:x", "punctuation:.", "number:0", "number:1.5", "number:0x1.0p-53",
                    "number:1_000",
                ])
    }

    @Test func spacing_isRecordedOnEachSide() {
        let tokens = SwiftLexer.tokens(of: "Array<Int> a<b !c d!")
        #expect(tokens.map(\.text) == ["Array", "<", "Int", ">", "a", "<", "b", "!", "c", "d", "!"])
        #expect(tokens[1].spacedBefore == false)
        #expect(tokens[3].spacedAfter == true)
        #expect(tokens[7].spacedBefore == true && tokens[7].spacedAfter == false)
        #expect(tokens[10].spacedBefore == false)
    }

    @Test func directives_arePoundTokens() {
        #expect(
            kinds("#if DEBUG\n#endif #filePath") == [
                "pound:#if", "identifier:DEBUG", "pound:#endif", "pound:#filePath",
            ])
    }
}
