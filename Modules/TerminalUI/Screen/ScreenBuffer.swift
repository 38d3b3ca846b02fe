/// A grid of cells, `width` × `height`: what a frame looks like, before it is sent.
///
/// Views draw into a buffer with the primitives in `ScreenBuffer+Drawing.swift`; the
/// `FrameDiffer` turns the difference between two buffers into escape sequences, and the
/// `HeadlessRenderer` turns a buffer into plain text. A value type: copying a buffer is how a
/// frame is kept for the next diff.
///
/// Invariant: a cell of width 2 is always followed, on the same line, by a continuation
/// cell (width 0), and a continuation always follows a width-2 cell. The drawing primitives
/// keep it, blanking the other half when they overwrite half of a wide grapheme.
///
/// ```swift
/// var buffer = ScreenBuffer(width: 80, height: 24)
/// buffer.put("Home", style: .plain.bold(), x: 0, y: 0)
/// buffer.horizontalRule(y: 1)
/// ```
public struct ScreenBuffer: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Lines.
    public let height: Int
    /// The cells, line by line: the cell at (x, y) is `cells[y * width + x]`.
    public private(set) var cells: [Cell]

    /// Makes a blank buffer of `width` × `height` cells (negative sizes count as 0).
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// Makes a blank buffer of `size`.
    public init(size: TerminalSize) {
        self.init(width: size.columns, height: size.rows)
    }

    /// The buffer's size.
    public var size: TerminalSize { TerminalSize(columns: width, rows: height) }

    /// The whole buffer as a rectangle at (0, 0).
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x`, line `y`; a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, x < width, y >= 0, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// The cells of line `y` (empty outside the buffer).
    public func line(_ y: Int) -> ArraySlice<Cell> {
        guard y >= 0, y < height else { return [] }
        return cells[(y * width)..<((y + 1) * width)]
    }

    /// Blanks every cell, in `style` (its background shows). O(width × height).
    public mutating func clear(style: Style = .plain) {
        let blank = Cell.blank(style)
        for index in cells.indices { cells[index] = blank }
    }

    /// Stores one grapheme at (x, y), keeping the wide-grapheme invariant: a wide grapheme
    /// needs x + 1 inside the line (callers check).
    mutating func store(_ character: Character, columns: Int, style: Style, x: Int, y: Int) {
        let index = y * width + x
        let existing = cells[index]
        if existing.isContinuation && x > 0 {
            // Overwriting the right half of a wide grapheme: its left half goes blank.
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        if existing.width == 2 && x + 1 < width {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = Cell(character, style: style, width: UInt8(columns))
        if columns == 2 {
            let right = index + 1
            if cells[right].width == 2 && x + 2 < width {
                cells[right + 1] = .blank(cells[right + 1].style)
            }
            cells[right] = Cell(" ", style: style, width: 0)
        }
    }
}
