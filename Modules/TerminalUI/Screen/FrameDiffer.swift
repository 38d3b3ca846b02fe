/// Turns the difference between two frames into the escape sequences that update a terminal
/// showing the first into the second.
///
/// Only changed lines are touched, and within a line only the changed cells (unchanged gaps
/// longer than a few cells are skipped with a cursor move). A changed tail of blanks is
/// erased with one `EL`. SGR changes are minimized: the pen carries over between cells and
/// each change uses the shorter of the incremental and the reset form. Graphemes of several
/// scalars (emoji sequences, flags) are followed by an explicit cursor move, so a terminal
/// that measures them differently cannot shift the rest of the line.
///
/// The output assumes autowrap is off (`Terminal` turns it off) and sets the pen and the
/// cursor position itself; it makes no assumption about either at the start.
///
/// Complexity: O(width × height) cell comparisons, plus output proportional to the changes.
///
/// ```swift
/// let update = FrameDiffer.diff(from: shown, to: next, colorMode: .trueColor)
/// terminal.write(update.output)
/// print(update.changedLineCount)
/// ```
public enum FrameDiffer {
    /// Cells of unchanged content shorter than this are rewritten rather than skipped.
    static let maximumRewrittenGap = 4

    /// The update from `previous` (nil: unknown screen) to `next` in `colorMode`.
    ///
    /// With no previous frame, or one of another size, the screen is cleared and every line
    /// counts as redrawn.
    public static func diff(from previous: ScreenBuffer?, to next: ScreenBuffer, colorMode: ColorMode)
        -> FrameUpdate
    {
        var writer = FrameWriter(colorMode: colorMode)
        let isFull = previous.map { $0.width != next.width || $0.height != next.height } ?? true
        let base = isFull ? ScreenBuffer(width: next.width, height: next.height) : (previous ?? next)
        var changedLines: [Int] = []
        if isFull {
            writer.output += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
            writer.pen = .reset
            writer.cursor = Point(x: 0, y: 0)
        }
        for y in 0..<next.height {
            let newLine = next.line(y)
            let oldLine = base.line(y)
            if isFull {
                changedLines.append(y)
            } else if newLine == oldLine {
                continue
            } else {
                changedLines.append(y)
            }
            if newLine != oldLine {
                writer.updateLine(y, from: Array(oldLine), to: Array(newLine))
            }
        }
        return FrameUpdate(output: writer.output, changedLines: changedLines, isFullRedraw: isFull)
    }
}
