/// The state of one diff's output: bytes so far, the pen and the cursor as the terminal has
/// them after those bytes.
struct FrameWriter {
    let colorMode: ColorMode
    var output = ""
    /// The terminal's current SGR state, nil when unknown.
    var pen: ResolvedStyle?
    /// The terminal's cursor, nil when unknown.
    var cursor: Point?

    init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    /// Emits what turns line `y` from `old` into `new` (same width).
    mutating func updateLine(_ y: Int, from old: [Cell], to new: [Cell]) {
        let width = new.count
        var changed = (0..<width).map { new[$0] != old[$0] }
        markNeighbors(of: &changed, old: old, new: new)

        // The blank tail: from `tail` on, `new` is default blanks only, so EL can clear it.
        var tail = width
        while tail > 0 && isDefaultBlank(new[tail - 1]) { tail -= 1 }
        let firstChangeInTail = (tail..<width).first { changed[$0] }

        var x = 0
        let end = firstChangeInTail ?? width
        while x < end {
            guard changed[x] else {
                x += 1
                continue
            }
            moveCursor(to: Point(x: x, y: y), rewriting: new, changed: changed)
            x = emit(new, from: x, y: y)
        }
        if let start = firstChangeInTail {
            moveCursor(to: Point(x: start, y: y), rewriting: new, changed: changed)
            setPen(.reset)
            output += "\u{1B}[K"
        }
    }

    /// Widens the change marks so wide graphemes are redrawn whole: a terminal that has half
    /// of a wide grapheme overwritten blanks the other half.
    private func markNeighbors(of changed: inout [Bool], old: [Cell], new: [Cell]) {
        let width = changed.count
        var again = true
        while again {
            again = false
            for x in 0..<width where changed[x] {
                if x > 0 && !changed[x - 1] && (new[x].isContinuation || old[x].isContinuation) {
                    changed[x - 1] = true
                    again = true
                }
                if x + 1 < width && !changed[x + 1] && (new[x].width == 2 || old[x].width == 2) {
                    changed[x + 1] = true
                    again = true
                }
            }
        }
    }

    private func isDefaultBlank(_ cell: Cell) -> Bool {
        cell.width == 1 && cell.character == " " && cell.style.resolved(for: colorMode) == .reset
    }

    /// Puts the cursor at `target`: nothing when it is there, rewriting a short run of
    /// unchanged cells when that is cheaper than a move, else CUF or CUP.
    private mutating func moveCursor(to target: Point, rewriting line: [Cell], changed: [Bool]) {
        if cursor == target { return }
        if let cursor, cursor.y == target.y, cursor.x < target.x,
            target.x - cursor.x <= FrameDiffer.maximumRewrittenGap,
            !line[cursor.x].isContinuation
        {
            // Rewrite the gap: the cells are unchanged, so drawing them again is harmless.
            var x = cursor.x
            while x < target.x { x = emit(line, from: x, y: target.y) }
            if self.cursor == target { return }
        }
        if let cursor, cursor.y == target.y, cursor.x < target.x {
            let distance = target.x - cursor.x
            output += distance == 1 ? "\u{1B}[C" : "\u{1B}[\(distance)C"
        } else if target.x == 0 {
            output += "\u{1B}[\(target.y + 1)H"
        } else {
            output += "\u{1B}[\(target.y + 1);\(target.x + 1)H"
        }
        cursor = target
    }

    /// Emits the grapheme at `x` (skipping over a continuation cell, whose lead covers it);
    /// returns the column after it. The cursor must be at (x, y).
    private mutating func emit(_ line: [Cell], from x: Int, y: Int) -> Int {
        let cell = line[x]
        guard !cell.isContinuation else { return x + 1 }
        let isPlaceholder = KittyGraphics.isPlaceholder(cell.character)
        // A kitty placeholder's foreground is its image id: 24-bit in every color mode.
        setPen(cell.style.resolved(for: isPlaceholder ? .trueColor : colorMode))
        output.append(cell.character)
        let next = x + max(Int(cell.width), 1)
        // A placeholder and its combining marks are one column everywhere (kitty, tmux, xterm).
        if next >= line.count || (cell.character.unicodeScalars.count > 1 && !isPlaceholder) {
            // Pending wrap at the right edge, or a sequence terminals may measure
            // differently: the cursor position is not known for sure.
            cursor = nil
        } else {
            cursor = Point(x: next, y: y)
        }
        return next
    }

    private mutating func setPen(_ style: ResolvedStyle) {
        output += SGREncoder.transition(from: pen, to: style)
        pen = style
    }
}
