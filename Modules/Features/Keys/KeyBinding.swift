import TerminalUI

/// One row of a screen's key table, as the footer and the `?` help show it: the keys, how the
/// help writes them, what they do, and how the footer writes them (if it shows them).
///
/// Screens never write their footer or help by hand: both come from their ``KeyTable``, the
/// same table their `handle(_:)` dispatches through, so a key added there is handled, shown and
/// explained at once.
///
/// ```swift
/// KeyBinding(keys: [.character("l")], does: "like", footer: "l")
/// // footer: "l like"; help: "  l            like"
/// ```
package struct KeyBinding: Sendable, Hashable {
    /// The keys this row matches; empty for a note about keys of other rows ("↑ at top").
    package var keys: [Key]
    /// The keys as the help's first column writes them, e.g. `↑ ↓  j k`.
    package var label: String
    /// What the keys do, e.g. `move`.
    package var does: String
    /// The keys as the footer writes them, e.g. `j/k`; nil when the footer leaves this row out.
    package var footerLabel: String?
    /// What the footer says the keys do when it says it differently from the help: the help says
    /// all a key can do (`repost / undo repost`), the footer what it does now (`undo repost`).
    /// Nil: the footer says `does`.
    package var footerDoes: String?

    /// Makes a row; `label` defaults to the keys' names (``name(of:)``).
    package init(
        keys: [Key], label: String? = nil, does: String, footer footerLabel: String? = nil,
        footerDoes: String? = nil
    ) {
        self.keys = keys
        self.label = label ?? keys.map(Self.name(of:)).joined(separator: " ")
        self.does = does
        self.footerLabel = footerLabel
        self.footerDoes = footerDoes
    }

    /// The footer's entry for this row (`j/k move`), or nil when the footer leaves it out.
    package var footerEntry: String? {
        let words = footerDoes ?? does
        return footerLabel.map { words.isEmpty ? $0 : "\($0) \(words)" }
    }

    /// The footer of a table: its footer entries, in order, joined with ` · `.
    package static func footer(of bindings: [KeyBinding]) -> String {
        bindings.compactMap(\.footerEntry).joined(separator: " · ")
    }

    /// This row without `taken` (keys something else handles first), its label rewritten from
    /// the keys left when it changes; nil when no key is left.
    package func removing(_ taken: Set<Key>) -> KeyBinding? {
        let left = keys.filter { !taken.contains($0) }
        guard left.count != keys.count else { return self }
        guard !left.isEmpty else { return nil }
        return KeyBinding(keys: left, does: does, footer: footerLabel, footerDoes: footerDoes)
    }

    /// A key's short name for labels: `↑`, `⌫`, `enter`, `space`, `pgup`, `ctrl-c`, or the
    /// character itself.
    package static func name(of key: Key) -> String {
        switch key {
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .backspace: "⌫"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .character(" "): "space"
        default: key.description
        }
    }
}
