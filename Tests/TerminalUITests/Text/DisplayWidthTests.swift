import TerminalUI
import Testing

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), (" ", 1), ("~", 1),
        ("e\u{301}", 1),  // e + combining acute: one grapheme, one column
        ("é", 1),  // precomposed
        ("漢", 2), ("カ", 2), ("한", 2), ("Ａ", 2),  // CJK, kana, Hangul, fullwidth
        ("ｶ", 1),  // halfwidth katakana
        ("😀", 2), ("👍🏽", 2),  // emoji, skin tone
        ("👨‍👩‍👧", 2),  // ZWJ family
        ("🇯🇵", 2), ("🇺🇸", 2),  // flags
        ("❤️", 2),  // VS16 on a text-default emoji
        ("❤", 1),  // the same without VS16
        ("1️⃣", 2),  // keycap
        ("⌚", 2),  // emoji presentation by default
        ("☺︎", 1),  // VS15: text presentation
        ("\u{200B}", 0), ("\u{200D}", 0), ("\u{301}", 0),  // zero width space, ZWJ, lone mark
        ("\t", 0), ("\u{1B}", 0), ("\r\n", 0), ("\u{7F}", 0), ("\u{85}", 0),  // controls
    ])
    func widthOfGrapheme_matchesTerminalColumns(text: String, expected: Int) throws {
        let character = try #require(
            text.count == 1 ? text.first : nil, "\(text.debugDescription) is one grapheme")
        #expect(DisplayWidth.of(character) == expected, "\(text.debugDescription)")
    }

    @Test func widthOfString_sumsGraphemes() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("漢字かな") == 8)
        #expect(DisplayWidth.of("café\u{301}") == 4)
        #expect(DisplayWidth.of("hi 👨‍👩‍👧 🇯🇵!") == 9)
        #expect(DisplayWidth.of("") == 0)
        #expect("漢a".displayWidth == 3)
    }

    @Test(arguments: [
        (0x41, 1), (0x0301, 0), (0x1160, 0), (0x11A8, 0), (0x1100, 2), (0x3000, 2), (0x4E00, 2),
        (0x9FFF, 2), (0xAC00, 2), (0xD7A3, 2), (0xFF01, 2), (0xFF61, 1), (0x1F600, 2), (0x1F1E6, 2),
        (0x20000, 2), (0x3FFFD, 2), (0xE0001, 0), (0xFE0F, 0), (0x00AD, 1), (0x2764, 1), (0x10FFFF, 1),
    ])
    func widthOfScalar_comesFromTheTable(value: UInt32, expected: Int) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(DisplayWidth.of(scalar: scalar) == expected, "U+\(String(value, radix: 16, uppercase: true))")
    }

    @Test func everyEmojiPresentationScalar_isTwoColumnsWide() {
        // The table and the standard library's Unicode data agree on emoji presentation.
        var mismatches: [String] = []
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation else { continue }
            if DisplayWidth.of(scalar: scalar) != 2 { mismatches.append(String(value, radix: 16)) }
        }
        #expect(mismatches.isEmpty, "emoji presentation scalars not 2 wide: \(mismatches.prefix(20))")
    }

    @Test func everyNonspacingMark_isZeroColumnsWide() {
        var mismatches: [String] = []
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            if category == .nonspacingMark || category == .enclosingMark, DisplayWidth.of(scalar: scalar) != 0
            {
                mismatches.append(String(value, radix: 16))
            }
        }
        #expect(mismatches.isEmpty, "marks with a width: \(mismatches.prefix(20))")
    }
}
