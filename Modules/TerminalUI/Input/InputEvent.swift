/// Something the terminal reported: a key, pasted text, a new size, or a focus change.
///
/// Focus changes come from xterm focus reporting (`CSI ?1004h`); apps map `focusGained` to
/// their foreground lifecycle event and `focusLost` to background.
public enum InputEvent: Hashable, Sendable, CustomStringConvertible {
    /// A key press.
    case key(Key)
    /// Text pasted with bracketed paste on, as one piece (line breaks normalized to "\n").
    case paste(String)
    /// The terminal now has this size (SIGWINCH).
    case resize(TerminalSize)
    /// The terminal window gained focus (`CSI I`).
    case focusGained
    /// The terminal window lost focus (`CSI O`).
    case focusLost
    /// The process was resumed after a suspend: the screen content is unknown, redraw all.
    case resumed

    /// A readable summary: `key(up)`, `paste("hi")`, `resize(80x24)`, ….
    public var description: String {
        switch self {
        case .key(let key): "key(\(key))"
        case .paste(let text): "paste(\(text.debugDescription))"
        case .resize(let size): "resize(\(size))"
        case .focusGained: "focusGained"
        case .focusLost: "focusLost"
        case .resumed: "resumed"
        }
    }
}
