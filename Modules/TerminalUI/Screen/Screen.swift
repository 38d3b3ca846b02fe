/// The frame being composed and the frame the terminal shows, on the UI actor.
///
/// Each frame: draw into `buffer` (usually after `buffer.clear()`), set `cursor`, then
/// `commit()` and write the update's output to the terminal. `commit()` diffs against what
/// was last committed, so only changed lines go out. In headless mode skip the terminal and
/// read `plainText`.
///
/// ```swift
/// let screen = Screen(size: terminal.size, colorMode: .detect(environment: env))
/// screen.buffer.clear()
/// screen.buffer.put("Home", style: .plain.bold(), x: 1, y: 0)
/// terminal.write(screen.commit().output)
/// ```
@MainActor
public final class Screen {
    /// The frame being composed; views draw into it.
    public var buffer: ScreenBuffer
    /// How colors are sent; changing it redraws everything on the next commit.
    public var colorMode: ColorMode {
        didSet { if colorMode != oldValue { shown = nil } }
    }
    /// Where the text cursor shows after the frame, or nil to hide it.
    public var cursor: Point?

    /// The last committed frame, as the terminal shows it (nil: unknown, redraw all).
    private var shown: ScreenBuffer?
    /// Whether the terminal's cursor is visible (nil: unknown).
    private var cursorVisible: Bool?

    /// Makes a blank screen of `size`.
    public init(size: TerminalSize, colorMode: ColorMode) {
        self.buffer = ScreenBuffer(size: size)
        self.colorMode = colorMode
    }

    /// The screen's size.
    public var size: TerminalSize { buffer.size }

    /// Starts over at `size` with a blank buffer; the next commit redraws everything.
    public func resize(to size: TerminalSize) {
        buffer = ScreenBuffer(size: size)
        shown = nil
    }

    /// Forgets what the terminal shows, so the next commit redraws everything (after the
    /// terminal was resumed, or something else wrote to it).
    public func invalidate() {
        shown = nil
        cursorVisible = nil
    }

    /// The update from the last committed frame to `buffer`, including cursor placement;
    /// `buffer` becomes the shown frame. O(width × height).
    public func commit() -> FrameUpdate {
        var update = FrameDiffer.diff(from: shown, to: buffer, colorMode: colorMode)
        shown = buffer
        if let cursor, buffer.bounds.contains(cursor) {
            update.output += "\u{1B}[\(cursor.y + 1);\(cursor.x + 1)H"
            if cursorVisible != true { update.output += "\u{1B}[?25h" }
            cursorVisible = true
        } else if cursorVisible != false {
            update.output += "\u{1B}[?25l"
            cursorVisible = false
        }
        return update
    }

    /// The frame being composed as plain text (see `HeadlessRenderer`).
    public var plainText: String { HeadlessRenderer.text(of: buffer) }
}
