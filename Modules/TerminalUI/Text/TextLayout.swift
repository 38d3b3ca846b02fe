/// Word wrapping and truncation by display width (see `DisplayWidth`).
///
/// Wrapping is greedy: words (runs of non-space graphemes) fill a line while they fit; a line
/// breaks at spaces, and the spaces at a break are dropped. A word wider than the line is
/// hard-broken between graphemes. A grapheme is never split, and a wide grapheme never
/// straddles the edge: it moves to the next line. `\n` (and `\r\n`, `\r`) starts a new
/// paragraph; a tab counts as a space. Leading spaces of a paragraph are kept as indentation
/// when the first word fits after them. Every line is at most `width` columns; at width 1 a
/// wide grapheme cannot be shown and is left out.
///
/// ```swift
/// TextLayout.wrap("the quick brown fox", width: 10)  // ["the quick", "brown fox"]
/// TextLayout.truncate("a long caption", width: 8)    // "a long …"
/// ```
public enum TextLayout {
    /// `text` wrapped to lines of at most `width` columns (at least 1). O(length).
    public static func wrap(_ text: String, width: Int) -> [String] {
        let glyphs = Array(text)
        return lineRanges(of: glyphs, width: width).map { String(glyphs[$0]) }
    }

    /// `line` wrapped to lines of at most `width` columns, keeping each grapheme's style.
    /// O(length).
    public static func wrap(_ line: StyledLine, width: Int) -> [StyledLine] {
        var glyphs: [Character] = []
        var styles: [Style] = []
        for span in line.spans {
            for character in span.text {
                glyphs.append(character)
                styles.append(span.style)
            }
        }
        return lineRanges(of: glyphs, width: width).map { range in
            var result = StyledLine()
            for index in range {
                result.append(String(glyphs[index]), style: styles[index])
            }
            return result
        }
    }

    /// `text` cut to at most `width` columns, ending in `ellipsis` when anything was cut.
    ///
    /// When even the ellipsis does not fit, the text is cut without it. O(length).
    public static func truncate(_ text: String, width: Int, ellipsis: String = "…") -> String {
        let width = max(width, 0)
        guard DisplayWidth.of(text) > width else { return text }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let room = ellipsisWidth <= width ? width - ellipsisWidth : width
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > room { break }
            result.append(character)
            used += columns
        }
        return ellipsisWidth <= width ? result + ellipsis : result
    }

    /// `line` cut to at most `width` columns, ending in `ellipsis` (in the style of the last
    /// kept grapheme) when anything was cut. O(length).
    public static func truncate(_ line: StyledLine, width: Int, ellipsis: String = "…") -> StyledLine {
        let width = max(width, 0)
        guard line.displayWidth > width else { return line }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let room = ellipsisWidth <= width ? width - ellipsisWidth : width
        var result = StyledLine()
        var used = 0
        var lastStyle = line.spans.first?.style ?? .plain
        outer: for span in line.spans {
            for character in span.text {
                let columns = DisplayWidth.of(character)
                if used + columns > room { break outer }
                result.append(String(character), style: span.style)
                lastStyle = span.style
                used += columns
            }
        }
        if ellipsisWidth <= width { result.append(ellipsis, style: lastStyle) }
        return result
    }

    /// `head` then `tail` in at most `width` columns, `head` cut (ending in `ellipsis`) so that
    /// `tail` stays whole: a name cut so the handle after it shows. When `tail` alone is wider
    /// than `width`, the two are cut as one line from the end. O(length).
    ///
    /// ```swift
    /// let name = StyledLine("潮見灯台守潮見灯台守", style: .plain.bold())
    /// TextLayout.truncate(name, keeping: StyledLine("  @kaito"), width: 16)
    /// // "潮見灯…  @kaito" (7 + 8 columns: a wide character does not fit the eighth)
    /// ```
    public static func truncate(
        _ head: StyledLine, keeping tail: StyledLine, width: Int, ellipsis: String = "…"
    ) -> StyledLine {
        let width = max(width, 0)
        guard tail.displayWidth <= width else {
            return truncate(head + tail, width: width, ellipsis: ellipsis)
        }
        return truncate(head, width: width - tail.displayWidth, ellipsis: ellipsis) + tail
    }

    /// The ranges of `glyphs` that make up each wrapped line. O(n).
    static func lineRanges(of glyphs: [Character], width requestedWidth: Int) -> [Range<Int>] {
        let width = max(requestedWidth, 1)
        var lines: [Range<Int>] = []
        var paragraphStart = 0
        for index in glyphs.indices where isLineBreak(glyphs[index]) {
            wrapParagraph(glyphs, paragraphStart..<index, width: width, into: &lines)
            paragraphStart = index + 1
        }
        wrapParagraph(glyphs, paragraphStart..<glyphs.count, width: width, into: &lines)
        return lines
    }

    static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n" || character == "\r"
    }

    static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    /// Greedy wrapping of one paragraph (no line breaks inside).
    private static func wrapParagraph(
        _ glyphs: [Character], _ paragraph: Range<Int>, width: Int, into lines: inout [Range<Int>]
    ) {
        // The current line is glyphs[lineStart..<lineEnd], lineWidth columns; nil when empty.
        var lineStart: Int?
        var lineEnd = paragraph.lowerBound
        var lineWidth = 0
        // Spaces seen since the line's last word (indentation at the paragraph's start).
        var spacesStart = paragraph.lowerBound
        var spaceCount = 0
        let emittedBefore = lines.count

        func flush() {
            if let start = lineStart { lines.append(start..<lineEnd) }
            lineStart = nil
            lineWidth = 0
        }

        var index = paragraph.lowerBound
        while index < paragraph.upperBound {
            if isSpace(glyphs[index]) {
                if spaceCount == 0 { spacesStart = index }
                spaceCount += 1
                index += 1
                continue
            }
            var wordEnd = index
            var wordWidth = 0
            while wordEnd < paragraph.upperBound && !isSpace(glyphs[wordEnd]) {
                wordWidth += DisplayWidth.of(glyphs[wordEnd])
                wordEnd += 1
            }
            if lineStart != nil && lineWidth + spaceCount + wordWidth <= width {
                // The word fits after the spaces on this line.
                lineEnd = wordEnd
                lineWidth += spaceCount + wordWidth
            } else {
                if lineStart != nil { flush() }
                let isFirstLine = lines.count == emittedBefore
                if isFirstLine && spaceCount > 0 && spaceCount + wordWidth <= width {
                    // Indentation at the start of the paragraph, and the word fits after it.
                    lineStart = spacesStart
                    lineEnd = wordEnd
                    lineWidth = spaceCount + wordWidth
                } else if wordWidth <= width {
                    lineStart = index
                    lineEnd = wordEnd
                    lineWidth = wordWidth
                } else {
                    var pieces = hardBreak(glyphs, index..<wordEnd, width: width)
                    // The last piece stays open so the next word may join it.
                    if let last = pieces.popLast() {
                        lines += pieces
                        lineStart = last.lowerBound
                        lineEnd = last.upperBound
                        lineWidth = DisplayWidth.of(String(glyphs[last]))
                    }
                }
            }
            spaceCount = 0
            index = wordEnd
        }
        flush()
        if lines.count == emittedBefore {
            // An empty paragraph (or spaces only) is one empty line.
            lines.append(paragraph.lowerBound..<paragraph.lowerBound)
        }
    }

    /// Splits a word wider than `width` between graphemes; wide graphemes never straddle the
    /// edge, and graphemes wider than the whole line are left out.
    private static func hardBreak(_ glyphs: [Character], _ word: Range<Int>, width: Int) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var pieceStart = word.lowerBound
        var pieceWidth = 0
        var index = word.lowerBound
        while index < word.upperBound {
            let columns = DisplayWidth.of(glyphs[index])
            if columns > width {
                // Cannot be shown at this width: close the piece and skip the grapheme.
                if index > pieceStart { lines.append(pieceStart..<index) }
                pieceStart = index + 1
                pieceWidth = 0
            } else if pieceWidth + columns > width {
                lines.append(pieceStart..<index)
                pieceStart = index
                pieceWidth = columns
            } else {
                pieceWidth += columns
            }
            index += 1
        }
        if word.upperBound > pieceStart { lines.append(pieceStart..<word.upperBound) }
        return lines
    }
}
