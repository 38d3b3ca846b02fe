import TerminalUI

/// A screen's keys: the one place a key is added. Each row is a ``KeyBinding`` (what the footer
/// and the help say) and the command each of its keys gives; the screen's `handle(_:)` looks the
/// key up here and switches over the command, so a key that is not in the table is not handled.
///
/// `Command` is the screen's own enum; switching over it with no `default:` makes the compiler
/// point at a command the screen does not perform.
///
/// ```swift
/// enum Command { case next, previous, like }
/// let keys = KeyTable<Command>([
///     .move(down: .next, up: .previous, footer: "j/k"),
///     .init([.character("l")], .like, does: "like", footer: "l"),
/// ])
/// keys.command(for: .character("l"))  // .like
/// keys.footer                          // "j/k move · l like"
/// ```
package struct KeyTable<Command: Sendable>: Sendable {
    /// One row: what it shows and the command each of its keys gives.
    package struct Row: Sendable {
        /// What the footer and the help show for this row.
        package let binding: KeyBinding
        /// Each key of the row with its command, in the binding's order.
        package let commands: [(key: Key, command: Command)]

        /// A row whose keys all give `command`; `footerDoes` is what the footer says they do now,
        /// when it is not `does` (see ``KeyBinding/footerDoes``).
        package init(
            _ keys: [Key], _ command: Command, label: String? = nil, does: String, footer: String? = nil,
            footerDoes: String? = nil
        ) {
            self.init(
                keys.map { ($0, command) }, label: label, does: does, footer: footer, footerDoes: footerDoes)
        }

        /// A row whose keys give commands of their own (`↓` next, `↑` previous).
        package init(
            _ commands: [(key: Key, command: Command)], label: String? = nil, does: String,
            footer: String? = nil, footerDoes: String? = nil
        ) {
            self.commands = commands
            binding = KeyBinding(
                keys: commands.map(\.key), label: label, does: does, footer: footer, footerDoes: footerDoes)
        }

        /// A note on keys of other rows, with no keys of its own (`↑ at top refreshes`, `type`).
        package static func note(_ label: String, does: String = "", inFooter: Bool = true) -> Row {
            Row([], label: label, does: does, footer: inFooter ? label : nil)
        }

        /// `↑ ↓  j k`: down and up, each giving its own command.
        package static func move(
            down: Command, up: Command, does: String = "move", footer: String? = "j/k"
        ) -> Row {
            Row(
                [(.character("j"), down), (.down, down), (.character("k"), up), (.up, up)], label: "↑ ↓  j k",
                does: does, footer: footer)
        }
    }

    /// The rows, in the order the footer and the help list them.
    package let rows: [Row]

    /// Makes a table of `rows`.
    package init(_ rows: [Row]) {
        self.rows = rows
    }

    /// What the footer and the help show: one binding per row, in order.
    package var bindings: [KeyBinding] { rows.map(\.binding) }

    /// The footer: the rows marked for it, in order, joined with ` · `.
    package var footer: String { KeyBinding.footer(of: bindings) }

    /// The command `key` gives (the first row listing it), or nil when the table does not have
    /// it. While a screen takes text (`typing`), printable characters are text, never commands.
    /// O(keys in the table).
    package func command(for key: Key, typing: Bool = false) -> Command? {
        if typing, case .character = key { return nil }
        for row in rows {
            if let match = row.commands.first(where: { $0.key == key }) { return match.command }
        }
        return nil
    }
}
