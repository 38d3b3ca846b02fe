extension ScreenBuffer {
    /// Draws `line` from column `x` on line `y`, clipped to the buffer and to `clip`.
    ///
    /// Graphemes of width 0 (controls, lone combining marks) are skipped. A wide grapheme
    /// cut by a clip edge leaves a blank cell in its style on the visible half. Returns the
    /// column after the last grapheme drawn (at or past the clip's right edge when clipped).
    /// O(length of line).
    @discardableResult
    public mutating func put(_ line: StyledLine, x: Int, y: Int, clip: Rect? = nil) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        var column = x
        guard y >= area.y, y < area.maxY, !area.isEmpty else { return column + line.displayWidth }
        for span in line.spans {
            for character in span.text {
                let columns = DisplayWidth.of(character)
                if columns == 0 { continue }
                if column >= area.maxX { return column }
                if column < area.x {
                    if column + columns > area.x {
                        store(" ", columns: 1, style: span.style, x: area.x, y: y)
                    }
                } else if column + columns > area.maxX {
                    store(" ", columns: 1, style: span.style, x: column, y: y)
                } else {
                    store(character, columns: columns, style: span.style, x: column, y: y)
                }
                column += columns
            }
        }
        return column
    }

    /// Draws `text` in `style` from column `x` on line `y`, clipped like `put(_:x:y:clip:)`.
    @discardableResult
    public mutating func put(_ text: String, style: Style = .plain, x: Int, y: Int, clip: Rect? = nil) -> Int
    {
        put(StyledLine(text, style: style), x: x, y: y, clip: clip)
    }

    /// Draws `line` into `rect`'s first line, cut with an ellipsis when wider than the rect,
    /// and fills the rest of that line with blanks in `fill` style.
    public mutating func putTruncated(_ line: StyledLine, in rect: Rect, fill: Style = .plain) {
        guard !rect.isEmpty else { return }
        let fitted = TextLayout.truncate(line, width: rect.width)
        let end = put(fitted, x: rect.x, y: rect.y, clip: rect)
        if end < rect.maxX {
            self.fill(Rect(x: end, y: rect.y, width: rect.maxX - end, height: 1), style: fill)
        }
    }

    /// Fills `rect` (clipped to the buffer) with `character` in `style`.
    ///
    /// A wide `character` fills pairs of columns; an odd last column gets a blank.
    /// O(area of rect).
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let columns = max(DisplayWidth.of(character), 1)
        let glyph: Character = DisplayWidth.of(character) == 0 ? " " : character
        for y in area.y..<area.maxY {
            var x = area.x
            while x < area.maxX {
                if x + columns > area.maxX {
                    store(" ", columns: 1, style: style, x: x, y: y)
                    x += 1
                } else {
                    store(glyph, columns: columns, style: style, x: x, y: y)
                    x += columns
                }
            }
        }
    }

    /// Draws a horizontal rule of `character` on line `y`, from column `x`, `length` columns
    /// long (to the right edge when nil).
    public mutating func horizontalRule(
        y: Int, x: Int = 0, length: Int? = nil, character: Character = "─", style: Style = .plain
    ) {
        fill(Rect(x: x, y: y, width: length ?? (width - x), height: 1), with: character, style: style)
    }

    /// Copies `other` into this buffer with its top-left corner at (`x`, `y`), clipped.
    public mutating func draw(_ other: ScreenBuffer, x: Int, y: Int) {
        for line in 0..<other.height {
            var column = 0
            while column < other.width {
                let cell = other[column, line]
                let columns = max(Int(cell.width), 1)
                let targetX = x + column
                let targetY = y + line
                if cell.isContinuation || targetY < 0 || targetY >= height || targetX < 0
                    || targetX + columns > width
                {
                    column += columns
                    continue
                }
                store(cell.character, columns: columns, style: cell.style, x: targetX, y: targetY)
                column += columns
            }
        }
    }
}
