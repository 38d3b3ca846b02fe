/// How many terminal columns text takes: per grapheme cluster (`Character`), Unicode-aware.
///
/// - Controls, combining marks, zero-width joiners and other format characters: 0.
/// - East Asian wide and fullwidth characters (CJK ideographs, kana, Hangul syllables,
///   fullwidth forms): 2.
/// - Emoji in emoji presentation: 2. That covers emoji that are wide by default, sequences
///   whose base takes VS16 (`U+FE0F`, e.g. "❤️"), ZWJ sequences (by their first emoji), skin
///   tone modifiers (by their base), flags (a regional-indicator pair) and keycaps.
/// - A cluster with VS15 (`U+FE0E`, text presentation): 1.
/// - Everything else: 1. A cluster's width is its first scalar's otherwise: "e" + U+0301 is 1.
///
/// Lookup is table driven: an ASCII fast path, then a binary search over about 500 sorted
/// ranges, O(log n) per scalar.
///
/// ```swift
/// DisplayWidth.of("漢字")                       // 4
/// DisplayWidth.of(Character("👨‍👩‍👧"))            // 2
/// DisplayWidth.of(Character("e\u{301}"))       // 1
/// ```
public enum DisplayWidth {
    /// The width in columns of one grapheme cluster: 0, 1 or 2.
    @inlinable
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            // "\r\n" is one ASCII Character too; it is a control.
            return ascii >= 0x20 && ascii < 0x7F && character != "\r\n" ? 1 : 0
        }
        return ofCluster(character)
    }

    /// The width in columns of `text`: the sum of its grapheme clusters' widths. O(length).
    public static func of<Text: StringProtocol>(_ text: Text) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// The width in columns of one scalar on its own: 0, 1 or 2 (from the table).
    public static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || value == 0x7F { return 0 }
        return tableWidth(value)
    }

    @usableFromInline
    static func ofCluster(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        let base = of(scalar: first)
        guard let second = iterator.next() else { return base }
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return 2 }
        var next: Unicode.Scalar? = second
        while let scalar = next {
            switch scalar.value {
            case 0xFE0F where first.properties.isEmoji: return 2
            case 0xFE0E where first.properties.isEmoji: return 1
            default: break
            }
            next = iterator.next()
        }
        return base
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Binary search for the range holding `value`; 1 when none does. O(log n).
    static func tableWidth(_ value: UInt32) -> Int {
        let ranges = DisplayWidthTable.ranges
        var low = 0
        var high = ranges.count
        // Find the last range whose first scalar is <= value.
        while low < high {
            let middle = (low + high) / 2
            if UInt32(truncatingIfNeeded: ranges[middle] >> 32) <= value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low > 0 else { return 1 }
        let entry = ranges[low - 1]
        let last = UInt32(truncatingIfNeeded: (entry >> 8) & 0xFF_FFFF)
        return value <= last ? Int(entry & 0xFF) : 1
    }
}

extension Character {
    /// This grapheme cluster's width in terminal columns (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }
}

extension StringProtocol {
    /// This text's width in terminal columns (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }
}
