/// How many terminal columns text takes, worked out here from Unicode's own properties and a
/// short list of East Asian wide ranges, apart from TerminalUI's `DisplayWidth`, so the tests can
/// check the renderer against something it does not share.
///
/// Per grapheme cluster: 0 for controls and for clusters of only combining marks, joiners and
/// format characters; 2 for a regional-indicator pair (a flag), for an emoji shown as an emoji
/// (emoji presentation by default, or asked for with U+FE0F; a ZWJ sequence or a skin tone
/// counts as its first emoji) and for East Asian wide characters; 1 for everything else,
/// including a letter with combining marks ("e" + U+0301) and an emoji asked as text (U+FE0E).
package enum DisplayColumns {
    /// The columns `text` takes.
    package static func of<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    package static func of(_ character: Character) -> Int {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if scalars.count >= 2, isRegionalIndicator(scalars[0]), isRegionalIndicator(scalars[1]) { return 2 }
        if first.properties.isEmoji {
            if scalars.contains(where: { $0.value == 0xFE0E }) { return 1 }
            if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation {
                return 2
            }
        }
        return isEastAsianWide(first.value) ? 2 : 1
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Wide and fullwidth blocks: Hangul Jamo, CJK radicals to Yi, Hangul syllables,
    /// compatibility ideographs, vertical and small forms, fullwidth forms, and the
    /// supplementary ideograph planes.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isEastAsianWide(_ value: UInt32) -> Bool {
        wideRanges.contains { $0.contains(value) }
    }
}
