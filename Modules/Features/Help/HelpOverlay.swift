import Sockets
import TerminalUI

/// The `?` overlay: every key, drawn over the screen.
package enum HelpOverlay {
    /// The overlay's lines: the keys of every screen, then the app's tabs.
    package static func lines(tabs: [Tab]) -> [String] {
        var lines = [
            "Keys",
            "",
            "  ↑ ↓  j k     move",
            "  enter        open",
            "  esc  ⌫       back",
            "  l            like / unlike",
            "  r            reply",
            "  s            repost",
            "  n            new post",
            "  ?            this help",
            "  q            quit",
            "",
        ]
        for (index, tab) in tabs.enumerated() { lines.append("  \(index + 1)            \(tab.title)") }
        lines += ["", "any key closes this help"]
        return lines
    }

    /// Draws the overlay as a box centred in `rect`.
    package static func draw(into buffer: inout ScreenBuffer, in rect: Rect, tabs: [Tab], style: AppStyle) {
        let text = lines(tabs: tabs)
        let boxWidth = min(rect.width - 4, 44)
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
