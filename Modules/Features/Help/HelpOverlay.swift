import TerminalUI

/// The `?` overlay, drawn over the screen: the keys of the screen shown (its ``KeyTable``, the
/// same one its footer and its `handle(_:)` use), then the shell's keys that screen leaves to
/// the shell (tabs, help, quit, …).
package enum HelpOverlay {
    /// The width of the key column, before what the keys do.
    static let keyColumn = 13

    /// The overlay's lines: a heading naming the screen, its keys, then `shell`'s keys without
    /// those the screen takes first, then how to close the overlay (right under them, with no
    /// blank line, so the Home help still fits a 24-line terminal).
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

    /// Draws the overlay as a box centred in `rect`.
    package static func draw(
        into buffer: inout ScreenBuffer, in rect: Rect, title: String, screen: [KeyBinding],
        shell: [KeyBinding], style: AppStyle
    ) {
        var text = lines(title: title, screen: screen, shell: shell)
        // Too tall for the screen: the blank line between the screen's keys and the shell's goes
        // first, so the last line (how to close it) still shows.
        if text.count + 2 > rect.height, let blank = text.firstIndex(of: "") { text.remove(at: blank) }
        let boxWidth = min(rect.width - 4, 56)
        let boxHeight = min(rect.height, text.count + 2)
        guard boxWidth > 10, boxHeight > 3 else { return }
        let box = Rect(x: rect.x + (rect.width - boxWidth) / 2, y: rect.y, width: boxWidth, height: boxHeight)
        buffer.fill(box, with: " ")
        buffer.horizontalRule(y: box.y, x: box.x, length: box.width, style: style.accent)
        buffer.horizontalRule(y: box.maxY - 1, x: box.x, length: box.width, style: style.accent)
        for (offset, line) in text.prefix(boxHeight - 2).enumerated() {
            buffer.putTruncated(
                StyledLine(line, style: offset == 0 ? style.strong : style.text),
                in: Rect(x: box.x + 2, y: box.y + 1 + offset, width: box.width - 4, height: 1))
        }
    }
}
