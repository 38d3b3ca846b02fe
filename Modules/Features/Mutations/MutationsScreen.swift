import Composition
import Mutations
import TerminalUI

/// Changes waiting for the server and changes it refused, in columns (the change named by what
/// it is about, its state, tries and next try), above the log of recent attempts. `r` sends the
/// selected change now (a failed one is tried again), `x` pressed twice discards a failed one
/// (the first press asks; any other key cancels). A list longer
/// than the screen scrolls with the selection, and says how many changes are above and below.
@MainActor
package final class MutationsScreen: AppScreen {
    private let context: AppContext
    private var selection = 0
    /// The changes drawn (the list scrolls to keep the selection in view).
    private var window = ScrollWindow()
    private var message: String?
    /// The change `x` was pressed on once: a second `x` on it discards it.
    private var askedToDiscard: String?
    /// Lines kept under the changes for the attempts: a blank line, their title and one attempt.
    private static let attemptsLines = 3

    /// Makes the screen.
    package init(context: AppContext, width: Int, height: Int) {
        self.context = context
    }

    package var title: String { "Sync" }

    package var status: String? { message }

    private var changes: [ChangeSummary] {
        guard let actions = context.actions else { return [] }
        return actions.failedChanges + actions.pendingChanges
    }

    package func appear() {}

    // MARK: Keys

    /// What the Sync tab's keys do.
    enum Command: Sendable {
        case next, previous, retry, discard
    }

    /// The Sync tab's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable([
            .move(down: .next, up: .previous),
            .init([.character("r")], .retry, does: "retry now", footer: "r"),
            .init([.character("x")], .discard, does: "discard (failed changes)", footer: "x"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        let asked = askedToDiscard
        askedToDiscard = nil
        guard let command = keys.command(for: key) else { return false }
        let list = changes
        switch command {
        case .next: selection = min(selection + 1, max(list.count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .retry:
            guard list.indices.contains(selection), let actions = context.actions else {
                message = "no change to send"
                return true
            }
            actions.retry(list[selection])
            message = "sending now: \(list[selection].title)"
        case .discard:
            guard list.indices.contains(selection), list[selection].failed, let actions = context.actions
            else {
                message = "only a failed change can be discarded"
                return true
            }
            guard asked == list[selection].token else {
                askedToDiscard = list[selection].token
                message = "press x again to discard \(list[selection].title); it is never sent"
                return true
            }
            actions.discard(list[selection])
            message = "discarded \(list[selection].title)"
        }
        return true
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let list = changes
        selection = min(selection, max(list.count - 1, 0))
        var y = rect.y
        func put(_ line: StyledLine) {
            guard y < rect.maxY else { return }
            buffer.putTruncated(line, in: Rect(x: rect.x, y: y, width: rect.width, height: 1))
            y += 1
        }
        let failed = list.filter(\.failed).count
        put(StyledLine(" Changes: \(list.count - failed) pending, \(failed) failed", style: style.strong))
        if let problem = context.actions?.journalProblem {
            put(StyledLine("  ✕ " + problem, style: style.failure))
        }
        let held = context.actions?.heldChanges ?? []
        for line in held {
            put(StyledLine("  " + line, style: style.pending))
        }
        if list.isEmpty {
            // Held changes (another account's) are not sent either, nor a change the journal
            // could not take: never "everything" then.
            let everything = held.isEmpty && context.actions?.journalProblem == nil
            put(
                StyledLine(
                    everything ? "  everything is sent" : "  nothing else waits to be sent",
                    style: style.secondary))
        } else {
            let columns = Columns(width: rect.width)
            put(StyledLine(columns.row("change", "state", "tries", "next try"), style: style.secondary))
            let shown = window.rows(
                heights: list.map { $0.problem == nil ? 1 : 2 }, selection: selection,
                room: rect.maxY - y - Self.attemptsLines)
            if shown.lowerBound > 0 {
                put(StyledLine("   ↑ \(shown.lowerBound) more", style: style.secondary))
            }
            for index in shown {
                let change = list[index]
                var line = StyledLine(index == selection ? "▌" : " ", style: style.accent)
                line.append(change.failed ? "✕ " : "⋯ ", style: change.failed ? style.failure : style.pending)
                line.append(
                    columns.row(
                        change.title, change.state, "\(change.tries)", change.nextTry ?? "-", lead: 0),
                    style: change.failed ? style.failure : style.text)
                put(line)
                if let problem = change.problem {
                    put(StyledLine("    " + problem, style: change.failed ? style.failure : style.secondary))
                }
            }
            if shown.upperBound < list.count {
                put(StyledLine("   ↓ \(list.count - shown.upperBound) more", style: style.secondary))
            }
        }
        y += 1
        put(StyledLine(" Attempts (newest first)", style: style.strong))
        // The columns that fit, under a heading; a narrow screen drops the time, then the problem.
        let columns = AttemptLogFormatter.columns(fitting: rect.width - 2)
        let log = context.actions?.attemptLog(limit: max(rect.maxY - y - 1, 0), columns: columns) ?? []
        if log.isEmpty {
            put(StyledLine("  none yet", style: style.secondary))
        } else {
            put(StyledLine("  " + AttemptLogFormatter().heading(columns), style: style.secondary))
        }
        for line in log { put(StyledLine("  " + line, style: style.secondary)) }
        return nil
    }

    package func resize(width: Int, height: Int) {}

    /// The change list's columns: the change takes what the state, tries and next try leave.
    struct Columns {
        static let state = 9
        static let tries = 6
        static let next = 9
        let change: Int

        init(width: Int) {
            change = max(width - 3 - Self.state - Self.tries - Self.next, 12)
        }

        /// One row, each cell cut or padded to its column; `lead` spaces before the first (the
        /// header lines up with rows that start with a selection bar and a glyph).
        func row(_ first: String, _ state: String, _ tries: String, _ next: String, lead: Int = 3) -> String {
            String(repeating: " ", count: lead) + Self.cell(first, change) + Self.cell(state, Self.state)
                + Self.cell(tries, Self.tries) + Self.cell(next, Self.next)
        }

        /// `text` cut to leave at least one blank column before the next cell, then padded to
        /// `width` columns (display columns: a CJK character or an emoji takes two).
        static func cell(_ text: String, _ width: Int) -> String {
            let cut = TextLayout.truncate(text, width: width - 1)
            return cut + String(repeating: " ", count: max(width - DisplayWidth.of(cut), 0))
        }
    }
}
