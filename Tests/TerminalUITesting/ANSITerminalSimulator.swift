import TerminalUI

/// A tiny terminal emulator for tests: applies the escape sequences the frame differ emits to
/// a grid of cells, so a test can check that the output reproduces the target frame.
///
/// Understands printable text (graphemes, measured with `DisplayWidth` like the differ),
/// CUP (`CSI row;col H`), CUF (`CSI n C`), EL 0 (`CSI K`), ED 2 (`CSI 2J`), SGR (the codes the
/// differ uses) and private modes (`CSI ? n h/l`, recorded, only 25 matters). Autowrap is off,
/// as `Terminal` sets it: the cursor stops at the last column. Erasing uses the pen's
/// background, as xterm does. Anything else is recorded in `unsupported`, so tests fail on
/// unexpected output.
public struct ANSITerminalSimulator: Sendable {
    /// A color as the simulated terminal received it.
    public enum Color: Hashable, Sendable {
        /// From `38;2;r;g;b` / `48;2;r;g;b`.
        case rgb(RGBColor)
        /// From `38;5;n` / `48;5;n`.
        case indexed(UInt8)
    }

    /// The SGR state of a cell or of the pen.
    public struct Pen: Hashable, Sendable {
        /// Foreground, nil for the default.
        public var foreground: Color?
        /// Background, nil for the default.
        public var background: Color?
        /// SGR 1.
        public var isBold = false
        /// SGR 2.
        public var isDim = false
        /// SGR 3.
        public var isItalic = false
        /// SGR 4.
        public var isUnderlined = false
        /// SGR 7.
        public var isInverse = false

        /// The default pen.
        public init() {}

        /// What `style` looks like on a terminal in `mode`: the pen the differ must produce.
        public init(_ style: Style, mode: ColorMode) {
            func convert(_ color: RGBColor?) -> Color? {
                guard let color else { return nil }
                switch mode {
                case .trueColor: return .rgb(color)
                case .palette256: return .indexed(color.xterm256Index)
                case .none: return nil
                }
            }
            foreground = convert(style.foreground)
            background = convert(style.background)
            isBold = style.isBold
            isDim = style.isDim
            isItalic = style.isItalic
            isUnderlined = style.isUnderlined
            isInverse = style.isInverse
        }
    }

    /// One simulated cell.
    public struct Cell: Hashable, Sendable {
        /// The grapheme; " " for blanks and for the right half of a wide grapheme.
        public var character: Character
        /// Its look.
        public var pen: Pen
        /// 1, 2 for a wide grapheme's left half, 0 for its right half.
        public var width: Int
    }

    /// Columns.
    public let width: Int
    /// Lines.
    public let height: Int
    /// The cells, line by line.
    public private(set) var cells: [Cell]
    /// The cursor column.
    public private(set) var cursorX = 0
    /// The cursor line.
    public private(set) var cursorY = 0
    /// The pen.
    public private(set) var pen = Pen()
    /// Whether the cursor is visible (`CSI ?25h/l`).
    public private(set) var isCursorVisible = true
    /// Sequences or bytes this simulator does not know.
    public private(set) var unsupported: [String] = []

    /// Makes a blank terminal of `width` × `height`, showing garbage-free blanks.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.cells = Array(repeating: Cell(character: " ", pen: Pen(), width: 1), count: width * height)
    }

    /// The cell at (x, y).
    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// The screen as plain text, each line right-trimmed, wide graphemes once (the same
    /// rules as `HeadlessRenderer`).
    public var plainText: String {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where self[x, y].width != 0 { line.append(self[x, y].character) }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The first cell (x, y) whose character or look differs from `buffer` in `mode`, nil
    /// when the screen shows exactly the buffer.
    public func firstDifference(from buffer: ScreenBuffer, mode: ColorMode) -> (
        x: Int, y: Int, detail: String
    )? {
        for y in 0..<height {
            for x in 0..<width {
                let expected = buffer[x, y]
                let actual = self[x, y]
                if expected.isContinuation {
                    if actual.width != 0 {
                        return (
                            x, y,
                            "expected the right half of a wide grapheme, found \(actual.character.debugDescription)"
                        )
                    }
                    continue
                }
                if actual.character != expected.character || actual.width != Int(expected.width)
                    || actual.pen != Pen(expected.style, mode: mode)
                {
                    return (
                        x, y,
                        "expected \(expected.character.debugDescription) \(Pen(expected.style, mode: mode)), "
                            + "found \(actual.character.debugDescription) \(actual.pen)"
                    )
                }
            }
        }
        return nil
    }

    /// Applies terminal output.
    public mutating func apply(_ output: String) {
        let scalars = Array(output.unicodeScalars)
        var index = 0
        var text = String.UnicodeScalarView()
        func flushText() {
            for character in String(text) { put(character) }
            text.removeAll()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}" {
                flushText()
                index = parseEscape(scalars, from: index)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                flushText()
                unsupported.append("control \(scalar.value)")
                index += 1
            } else {
                text.append(scalar)
                index += 1
            }
        }
        flushText()
    }

    private mutating func parseEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start + 1 < scalars.count, scalars[start + 1] == "[" else {
            unsupported.append("ESC without [")
            return start + 1
        }
        var index = start + 2
        var parameters = ""
        while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) {
            parameters.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count else {
            unsupported.append("unterminated CSI \(parameters)")
            return index
        }
        let final = scalars[index]
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 }
        switch final {
        case "H":
            let column = numbers.count > 1 ? numbers[1] ?? 1 : 1
            cursorY = min(max((first ?? 1) - 1, 0), height - 1)
            cursorX = min(max(column - 1, 0), width - 1)
        case "C":
            cursorX = min(cursorX + max(first ?? 1, 1), width - 1)
        case "K" where parameters.isEmpty || parameters == "0":
            for x in cursorX..<width { cells[cursorY * width + x] = blank() }
            fixWideHalves(line: cursorY)
        case "J" where parameters == "2":
            for cell in cells.indices { cells[cell] = blank() }
        case "m":
            applySGR(numbers.map { $0 ?? 0 })
        case "h" where parameters.hasPrefix("?"), "l" where parameters.hasPrefix("?"):
            if parameters == "?25" { isCursorVisible = final == "h" }
        default:
            unsupported.append("CSI \(parameters)\(final)")
        }
        return index + 1
    }

    private func blank() -> Cell {
        var erasePen = Pen()
        erasePen.background = pen.background
        return Cell(character: " ", pen: erasePen, width: 1)
    }

    private mutating func applySGR(_ codes: [Int]) {
        var index = 0
        let codes = codes.isEmpty ? [0] : codes
        while index < codes.count {
            switch codes[index] {
            case 0: pen = Pen()
            case 1: pen.isBold = true
            case 2: pen.isDim = true
            case 3: pen.isItalic = true
            case 4: pen.isUnderlined = true
            case 7: pen.isInverse = true
            case 22:
                pen.isBold = false
                pen.isDim = false
            case 23: pen.isItalic = false
            case 24: pen.isUnderlined = false
            case 27: pen.isInverse = false
            case 39: pen.foreground = nil
            case 49: pen.background = nil
            case 38, 48:
                let isForeground = codes[index] == 38
                var color: Color?
                if index + 4 < codes.count, codes[index + 1] == 2 {
                    color = .rgb(
                        RGBColor(
                            red: UInt8(clamping: codes[index + 2]), green: UInt8(clamping: codes[index + 3]),
                            blue: UInt8(clamping: codes[index + 4])))
                    index += 4
                } else if index + 2 < codes.count, codes[index + 1] == 5 {
                    color = .indexed(UInt8(clamping: codes[index + 2]))
                    index += 2
                } else {
                    unsupported.append("SGR \(codes)")
                }
                if isForeground { pen.foreground = color } else { pen.background = color }
            default:
                unsupported.append("SGR code \(codes[index])")
            }
            index += 1
        }
    }

    /// Prints one grapheme at the cursor, as xterm does with autowrap off.
    private mutating func put(_ character: Character) {
        let columns = DisplayWidth.of(character)
        guard columns > 0 else {
            unsupported.append("zero-width grapheme \(character.debugDescription)")
            return
        }
        if columns == 2 && cursorX == width - 1 {
            unsupported.append("wide grapheme at the last column")
            return
        }
        cells[cursorY * width + cursorX] = Cell(character: character, pen: pen, width: columns)
        if columns == 2 { cells[cursorY * width + cursorX + 1] = Cell(character: " ", pen: pen, width: 0) }
        fixWideHalves(line: cursorY)
        cursorX = min(cursorX + columns, width - 1)
    }

    /// Blanks halves of wide graphemes left without their other half.
    private mutating func fixWideHalves(line y: Int) {
        for x in 0..<width {
            let cell = self[x, y]
            if cell.width == 2 && (x + 1 >= width || self[x + 1, y].width != 0) {
                cells[y * width + x] = Cell(character: " ", pen: cell.pen, width: 1)
            }
            if cell.width == 0 && (x == 0 || self[x - 1, y].width != 2) {
                cells[y * width + x] = Cell(character: " ", pen: cell.pen, width: 1)
            }
        }
    }
}
