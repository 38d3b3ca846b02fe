import Composition
import Testing

/// What a diagnostic quotes from a manifest is printable and short.
@Suite struct DiagnosticTextTests {
    @Test func controlCharacters_areWrittenAsJSONEscapes() {
        #expect(DiagnosticText.escaped("a\u{1B}[2J\u{7}b") == #"a\u001b[2J\u0007b"#)
        #expect(DiagnosticText.escaped("\u{9B}\u{7F}") == #"\u009b\u007f"#, "C1 and DEL too")
        #expect(DiagnosticText.escaped("evil\u{202E}txt") == #"evil\u202etxt"#, "a bidirectional override")
        #expect(
            DiagnosticText.escaped("strand.feedPolicy · é") == "strand.feedPolicy · é", "plain text is kept")
    }

    @Test func aLongValue_isCutWithItsLength() {
        let value = String(repeating: "k", count: 61)
        #expect(DiagnosticText.value(value) == String(repeating: "k", count: 60) + "… (61 characters)")
        #expect(DiagnosticText.value(String(repeating: "k", count: 60)) == String(repeating: "k", count: 60))
    }

    @Test func everyDiagnostic_escapesItsMessageAndFile_andCutsAHugeMessage() {
        let diagnostic = Diagnostic(
            at: SourceLocation(file: "a\u{1B}.json", line: 1, column: 1), code: "x",
            "bad '\u{1B}]0;t\u{7}'" + String(repeating: "m", count: 5_000))
        #expect(!diagnostic.description.unicodeScalars.contains { $0.value < 0x20 })
        #expect(diagnostic.description.hasPrefix(#"a\u001b.json:1:1: error: bad '\u001b]0;t\u0007'"#))
        #expect(diagnostic.message.count < 2_100)
        #expect(diagnostic.message.hasSuffix("… (message cut)"))
    }
}
