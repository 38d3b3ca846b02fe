/// A key press, as parsed from the terminal's bytes.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// Printable text: one grapheme cluster (any script, emoji included).
    case character(Character)
    /// Return / Enter (CR or LF).
    case enter
    /// Escape on its own (not the start of a sequence).
    case escape
    /// Tab.
    case tab
    /// Shift-Tab (`CSI Z`).
    case backTab
    /// Backspace (0x7F or 0x08).
    case backspace
    /// Forward delete (`CSI 3 ~`).
    case delete
    /// Insert (`CSI 2 ~`).
    case insert
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// A function key, F1 through F12.
    case function(Int)
    /// Control plus a key: `.control("c")` is Ctrl-C (0x03). Letters are lowercase; Ctrl-@ is
    /// `.control("@")`, 0x1C...0x1F are `\`, `]`, `^`, `_`.
    case control(Character)

    /// A readable name: `up`, `ctrl-c`, `f5`, or the character itself.
    public var description: String {
        switch self {
        case .character(let character): String(character)
        case .enter: "enter"
        case .escape: "esc"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .backspace: "backspace"
        case .delete: "delete"
        case .insert: "insert"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pageup"
        case .pageDown: "pagedown"
        case .function(let number): "f\(number)"
        case .control(let character): "ctrl-\(character)"
        }
    }
}
