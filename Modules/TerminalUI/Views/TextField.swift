/// An editable text field on the UI actor: one line that scrolls sideways, or wrapped lines.
///
/// Feed it input events, draw it into a rect, and put the screen's cursor where `draw`
/// says. The text model is a `TextEditBuffer` (graphemes, cursor, optional limit).
///
/// ```swift
/// let field = TextField(placeholder: "What's new?", mode: .wrapped(maxLines: 4), limit: 500)
/// field.handle(event)                         // keys and pastes edit it
/// screen.cursor = field.draw(into: &screen.buffer, in: rect)
/// footer = "\(field.characterCount)/500"
/// ```
@MainActor
public final class TextField {
    /// How the text is laid out.
    public enum Mode: Hashable, Sendable {
        /// One line, scrolled horizontally to keep the cursor visible.
        case singleLine
        /// Wrapped lines, at most `maxLines` shown (scrolled to keep the cursor visible).
        case wrapped(maxLines: Int)
    }

    /// The text and cursor.
    public var buffer: TextEditBuffer
    /// Shown, dimmed, while the text is empty.
    public var placeholder: String
    /// The layout.
    public var mode: Mode
    /// The style of the text.
    public var style: Style
    /// The style of the placeholder.
    public var placeholderStyle: Style

    /// The first text column shown in single-line mode.
    private var horizontalScroll = 0
    /// The first line shown in wrapped mode.
    private var verticalScroll = 0
    /// The width the field was last drawn at: ↑ and ↓ move through the lines as drawn.
    private var drawnWidth = 80

    /// Makes a field holding `text` (cursor at its end).
    public init(
        text: String = "", placeholder: String = "", mode: Mode = .singleLine, limit: Int? = nil,
        style: Style = .plain, placeholderStyle: Style = Style.plain.dim()
    ) {
        self.buffer = TextEditBuffer(text, limit: limit)
        self.placeholder = placeholder
        self.mode = mode
        self.style = style
        self.placeholderStyle = placeholderStyle
    }

    /// The text.
    public var text: String {
        get { buffer.text }
        set { buffer.setText(newValue) }
    }

    /// The number of graphemes in the text.
    public var characterCount: Int { buffer.characterCount }

    /// The spaces a pasted tab becomes.
    public static let tabWidth = 4

    /// Applies a key or a paste (in one-line mode, pasted line breaks become spaces; a tab
    /// becomes ``tabWidth`` spaces everywhere). In wrapped mode ↑ and ↓ move the cursor a line
    /// as drawn (false on the first and last line). Returns
    /// false for events that do not edit, so the caller can handle them (Enter, Esc, Tab…).
    @discardableResult
    public func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .key(.up) where mode != .singleLine:
            return buffer.moveVertically(by: -1, width: drawnWidth)
        case .key(.down) where mode != .singleLine:
            return buffer.moveVertically(by: 1, width: drawnWidth)
        case .key(let key):
            return buffer.handle(key)
        case .paste(let raw):
            // A tab has no width of its own in a terminal cell: it becomes four spaces, so what
            // is shown, and posted, reads as what was pasted.
            let pasted = raw.replacingAll("\t", with: String(repeating: " ", count: Self.tabWidth))
            if case .singleLine = mode {
                buffer.insert(String(pasted.map { $0 == "\n" ? " " : $0 }))
            } else {
                buffer.insert(pasted)
            }
            return true
        default:
            return false
        }
    }

    /// The lines the field needs at `width`: 1 in one-line mode, else the wrapped line count
    /// up to `maxLines`.
    public func height(forWidth width: Int) -> Int {
        switch mode {
        case .singleLine: return 1
        case .wrapped(let maxLines):
            return min(buffer.wrappedLayout(width: width).lines.count, max(maxLines, 1))
        }
    }

    /// Draws the field into `rect` (blanking it first) and returns the cursor's screen
    /// position, or nil when the rect is empty.
    public func draw(into screen: inout ScreenBuffer, in rect: Rect) -> Point? {
        guard !rect.isEmpty else { return nil }
        screen.fill(rect, style: style)
        switch mode {
        case .singleLine:
            if buffer.isEmpty {
                screen.put(
                    TextLayout.truncate(placeholder, width: rect.width), style: placeholderStyle, x: rect.x,
                    y: rect.y, clip: rect)
                return Point(x: rect.x, y: rect.y)
            }
            let layout = buffer.singleLineLayout(width: rect.width, scroll: horizontalScroll)
            horizontalScroll = layout.scroll
            screen.put(layout.visible, style: style, x: rect.x, y: rect.y, clip: rect)
            return Point(x: rect.x + layout.cursorColumn, y: rect.y)
        case .wrapped(let maxLines):
            drawnWidth = rect.width
            let visibleLines = min(max(maxLines, 1), rect.height)
            if buffer.isEmpty {
                for (index, line) in TextLayout.wrap(placeholder, width: rect.width).prefix(visibleLines)
                    .enumerated()
                {
                    screen.put(line, style: placeholderStyle, x: rect.x, y: rect.y + index, clip: rect)
                }
                return Point(x: rect.x, y: rect.y)
            }
            let layout = buffer.wrappedLayout(width: rect.width)
            verticalScroll = min(max(verticalScroll, layout.cursor.y - visibleLines + 1), layout.cursor.y)
            verticalScroll = max(min(verticalScroll, layout.lines.count - visibleLines), 0)
            for row in 0..<visibleLines where verticalScroll + row < layout.lines.count {
                screen.put(
                    layout.lines[verticalScroll + row], style: style, x: rect.x, y: rect.y + row, clip: rect)
            }
            return Point(x: rect.x + layout.cursor.x, y: rect.y + layout.cursor.y - verticalScroll)
        }
    }
}
