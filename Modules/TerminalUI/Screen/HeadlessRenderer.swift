/// Renders a frame as plain text: what the terminal would show, minus styling.
///
/// Each of the buffer's lines becomes one text line with trailing spaces removed; a wide
/// grapheme appears once (its continuation cell adds nothing). The result always has
/// `height` lines, so frames of a given size compare line for line. Used by the tests and by
/// the apps' `--headless` mode.
///
/// ```swift
/// let text = HeadlessRenderer.text(of: screen.buffer)
/// ```
public enum HeadlessRenderer {
    /// The buffer's lines as plain text, right-trimmed. O(width × height).
    public static func lines(of buffer: ScreenBuffer) -> [String] {
        (0..<buffer.height).map { y in
            var line = ""
            for cell in buffer.line(y) where !cell.isContinuation {
                line.append(cell.character)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The buffer as plain text: its lines joined with "\n" (no trailing newline).
    public static func text(of buffer: ScreenBuffer) -> String {
        lines(of: buffer).joined(separator: "\n")
    }
}
