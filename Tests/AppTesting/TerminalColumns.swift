/// How many terminal columns text takes, computed here from Unicode properties and the East
/// Asian wide ranges, independently of TerminalUI's own measure: the oracle's ruler for "no row
/// wider than the screen", so a width bug in shared code cannot also bend the check.
package enum TerminalColumns {
    /// The columns `text` takes: 2 for a wide or emoji grapheme, 0 for one made only of
    /// combining marks or format characters, 1 otherwise.
    package static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one grapheme takes.
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if scalars.contains(where: { (0x1F3FB...0x1F3FF).contains($0.value) }) { return 2 }
        if scalars.count > 1 && scalars.contains(where: { $0.value == 0x200D }) && first.properties.isEmoji {
            return 2
        }
        if first.properties.isEmojiPresentation || isWide(first.value) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth blocks (Hangul, CJK, kana, fullwidth forms, and the
    /// supplementary ideographic planes).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
