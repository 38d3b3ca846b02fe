extension TextEditBuffer {
    /// What a one-line field of `width` columns shows: the visible graphemes, where the cursor
    /// is, and the scroll to keep for the next draw.
    public struct SingleLineLayout: Hashable, Sendable {
        /// The visible text (a wide grapheme cut by the left edge shows as a blank).
        public var visible: String
        /// The cursor's column inside the field.
        public var cursorColumn: Int
        /// The first text column shown; pass it back as `scroll` next time.
        public var scroll: Int

        /// Makes a layout.
        public init(visible: String, cursorColumn: Int, scroll: Int) {
            self.visible = visible
            self.cursorColumn = cursorColumn
            self.scroll = scroll
        }
    }

    /// What a field of `width` columns shows, each wrapped line with where the cursor is.
    public struct WrappedLayout: Hashable, Sendable {
        /// The lines, each at most `width` columns.
        public var lines: [String]
        /// The cursor: line index and column.
        public var cursor: Point

        /// Makes a layout.
        public init(lines: [String], cursor: Point) {
            self.lines = lines
            self.cursor = cursor
        }
    }

    /// The one-line view: scrolls horizontally just enough to keep the cursor visible,
    /// starting from the previous `scroll`. O(length).
    public func singleLineLayout(width: Int, scroll previousScroll: Int) -> SingleLineLayout {
        let width = max(width, 1)
        let column = cursorColumn
        var scroll = min(max(previousScroll, 0), column)
        if column >= scroll + width { scroll = column - width + 1 }
        var visible = ""
        var position = 0
        for character in characters {
            let columns = DisplayWidth.of(character)
            defer { position += columns }
            if position + columns <= scroll { continue }
            if position >= scroll + width { break }
            if position < scroll || position + columns > scroll + width {
                visible += " "  // a wide grapheme cut by an edge
                continue
            }
            visible.append(character)
        }
        return SingleLineLayout(visible: visible, cursorColumn: column - scroll, scroll: scroll)
    }

    /// The wrapped view: lines break after the last space when a word would cross the edge,
    /// inside words longer than a line, and at "\n". Every grapheme stays on some line (a
    /// space at a break stays at the end of its line and may hang past the edge), so the
    /// cursor always has a place; at a soft break it shows at the start of the next line.
    /// O(length).
    public func wrappedLayout(width: Int) -> WrappedLayout {
        let width = max(width, 2)
        let ranges = wrappedLineRanges(width: width)
        let lineIndex = ranges.lastIndex { $0.lowerBound <= cursor } ?? 0
        let range = ranges[lineIndex]
        var lines = ranges.map { String(characters[$0]) }
        let column = DisplayWidth.of(String(characters[range.lowerBound..<min(cursor, range.upperBound)]))
        let cursorPoint: Point
        if column < width {
            cursorPoint = Point(x: column, y: lineIndex)
        } else if lineIndex == ranges.count - 1 {
            lines.append("")
            cursorPoint = Point(x: 0, y: lineIndex + 1)
        } else {
            cursorPoint = Point(x: width - 1, y: lineIndex)
        }
        return WrappedLayout(lines: lines, cursor: cursorPoint)
    }

    /// The graphemes of each wrapped line (newline characters belong to none).
    func wrappedLineRanges(width: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var lineWidth = 0
        var lastBreak: Int?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" || character == "\r\n" {
                ranges.append(start..<index)
                start = index + 1
                lineWidth = 0
                lastBreak = nil
                index += 1
                continue
            }
            let columns = DisplayWidth.of(character)
            if character != " " && lineWidth + columns > width && index > start {
                let cut = lastBreak.map { $0 > start ? $0 : index } ?? index
                ranges.append(start..<cut)
                start = cut
                lineWidth = DisplayWidth.of(String(characters[cut..<index]))
                lastBreak = nil
                continue
            }
            lineWidth += columns
            if character == " " { lastBreak = index + 1 }
            index += 1
        }
        ranges.append(start..<characters.count)
        return ranges
    }
}
