import TerminalUI

/// The `?` overlay, drawn over the screen: the keys of the screen shown (its ``KeyTable``, the
/// same one its footer and its `handle(_:)` use), then the shell's keys that screen leaves to
/// the shell (tabs, help, quit, …).
///
/// It owns the whole content area while shown (nothing of the screen shows beside or below it)
/// and draws a box centred in it: one column when its lines fit the height, else two columns
/// side by side (`HelpLayout`), so a screen with many keys still shows every one of them and
/// "any key closes this help" in a 24-line terminal. Where two columns do not fit either (50x20),
/// it pages: the last line says "page 1 of 2 · space: next", and the shell turns the page.
package enum HelpOverlay {
    /// The width of the key column, before what the keys do.
    static let keyColumn = 13

    /// Where what a key does starts in its line: after the two-column indent and the key column.
    /// A line wrapped in a narrow column goes on there (``HelpLayout``).
    static let doesColumn = 2 + keyColumn

    /// The overlay's lines: a heading naming the screen, its keys, then `shell`'s keys without
    /// those the screen takes first, then how to close the overlay (right under them, with no
    /// blank line, so the Home help still fits a 24-line terminal in one column).
    package static func lines(title: String, screen: [KeyBinding], shell: [KeyBinding]) -> [String] {
        let taken = Set(screen.flatMap(\.keys))
        let shellLeft = shell.compactMap { $0.removing(taken) }
        return ["Keys · \(title)"] + screen.map(line) + [""] + shellLeft.map(line) + [
            "any key closes this help"
        ]
    }

    /// One key's line: `  ↑ ↓  j k     move`.
    static func line(_ binding: KeyBinding) -> String {
        let gap = max(keyColumn - binding.label.displayWidth, 1)
        return "  " + binding.label + String(repeating: " ", count: gap) + binding.does
    }

    /// Clears `rect` and draws the overlay in it: a box between two rules, its heading, its keys
    /// in one or two columns, and how to close it.
    /// How many pages the overlay takes in `rect` (more than one only where even two columns do
    /// not fit).
    package static func pageCount(
        in rect: Rect, title: String, screen: [KeyBinding], shell: [KeyBinding]
    ) -> Int {
        HelpLayout(lines(title: title, screen: screen, shell: shell), in: rect)?.pageCount ?? 1
    }

    package static func draw(
        into buffer: inout ScreenBuffer, in rect: Rect, title: String, screen: [KeyBinding],
        shell: [KeyBinding], page: Int = 0, style: AppStyle
    ) {
        buffer.fill(rect, with: " ")
        guard let layout = HelpLayout(lines(title: title, screen: screen, shell: shell), in: rect, page: page)
        else {
            return
        }
        let box = layout.box
        buffer.horizontalRule(y: box.y, x: box.x, length: box.width, style: style.accent)
        buffer.horizontalRule(y: box.maxY - 1, x: box.x, length: box.width, style: style.accent)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        buffer.putTruncated(
            StyledLine(layout.heading, style: style.strong),
            in: Rect(x: inner.x, y: inner.y, width: inner.width, height: 1))
        for (index, column) in layout.columns.enumerated() {
            let x = inner.x + index * (layout.columnWidth + HelpLayout.gutter.count)
            for (offset, row) in column.enumerated() {
                buffer.putTruncated(
                    StyledLine(row, style: style.text),
                    in: Rect(x: x, y: inner.y + 1 + offset, width: layout.columnWidth, height: 1))
            }
        }
        if layout.columns.count == 2 {
            for offset in 0..<layout.bodyHeight {
                _ = buffer.put(
                    HelpLayout.gutter, style: style.separator, x: inner.x + layout.columnWidth,
                    y: inner.y + 1 + offset)
            }
        }
        buffer.putTruncated(
            StyledLine(layout.closing, style: style.text),
            in: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1))
    }
}
