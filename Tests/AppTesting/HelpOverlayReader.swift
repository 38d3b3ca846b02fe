import AppRuntime
import TerminalUI

/// Reads the `?` overlay off a rendered frame, exactly as a person sees it.
package enum HelpOverlayReader {
    /// The overlay's lines (inside its box, right-trimmed), or nil when no overlay is drawn.
    ///
    /// The overlay is a box centred in the content area, drawn between two rules on the first
    /// content row and below its last line; its text starts two columns inside the box.
    @MainActor
    package static func lines(of session: AppSession) -> [String]? {
        lines(of: session.render().buffer)
    }

    /// The overlay's lines in `buffer`, or nil when no overlay is drawn.
    package static func lines(of buffer: ScreenBuffer) -> [String]? {
        let top = 2
        guard buffer.height > top + 2 else { return nil }
        let middle = buffer.width / 2
        guard buffer[middle, top].character == "─" else { return nil }
        var left = middle
        while left > 0, buffer[left - 1, top].character == "─" { left -= 1 }
        var right = middle
        while right + 1 < buffer.width, buffer[right + 1, top].character == "─" { right += 1 }
        guard left > 0 || right < buffer.width - 1 else { return nil }
        var lines: [String] = []
        for y in (top + 1)..<buffer.height {
            if buffer[left, y].character == "─" { return lines }
            var line = ""
            for x in (left + 2)...max(right - 2, left + 2) where !buffer[x, y].isContinuation {
                line.append(buffer[x, y].character)
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return nil
    }
}
