import AppRuntime
import TerminalUI

/// Reads the `?` overlay off a rendered frame, exactly as a person sees it.
package enum HelpOverlayReader {
    /// The overlay's lines (inside its box, right-trimmed, in reading order), or nil when no
    /// overlay is drawn.
    ///
    /// The overlay is a box centred in the content area, drawn between two rules on the first
    /// content row and below its last line; its text starts two columns inside the box. The
    /// first line is the heading and the last how to close it; between them the keys are in one
    /// column, or in two split by a `│` gutter (read left column first, each without its blank
    /// rows at the bottom). A line wrapped in a narrow column (its further rows indented 15
    /// columns, under what the keys do) is read back as the one line it is.
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
        guard let bottom = ((top + 1)..<buffer.height).first(where: { buffer[left, $0].character == "─" }),
            bottom >= top + 3
        else { return nil }

        func text(_ y: Int, from start: Int, to end: Int) -> String {
            var line = ""
            for x in start...max(end, start) where !buffer[x, y].isContinuation {
                line.append(buffer[x, y].character)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
        let (first, last) = (left + 2, max(right - 2, left + 2))
        let body = Array((top + 2)..<(bottom - 1))
        // Two columns when a `│` gutter runs down every row between the heading and the closing.
        let gutter =
            body.isEmpty
            ? nil
            : (first...last).first { x in
                body.allSatisfy { buffer[x, $0].character == "│" }
            }
        var rows: [String]
        if let gutter {
            var columns = [
                body.map { text($0, from: first, to: gutter - 2) },
                body.map { text($0, from: gutter + 2, to: last) },
            ]
            for index in columns.indices {
                while columns[index].last == "" { columns[index].removeLast() }
            }
            rows = columns[0] + columns[1]
        } else {
            rows = body.map { text($0, from: first, to: last) }
        }
        // Rows indented to what the keys do go on the row above.
        var lines: [String] = []
        let indent = String(repeating: " ", count: 15)
        for row in rows {
            if row.hasPrefix(indent), row.contains(where: { $0 != " " }), let previous = lines.last,
                !previous.isEmpty
            {
                lines[lines.count - 1] = previous + " " + row.drop { $0 == " " }
            } else {
                lines.append(row)
            }
        }
        return [text(top + 1, from: first, to: last)] + lines + [text(bottom - 1, from: first, to: last)]
    }
}
