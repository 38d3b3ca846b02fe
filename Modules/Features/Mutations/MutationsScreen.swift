import Composition
import TerminalUI

/// Changes waiting for the server and changes it refused, with retry and discard, above the
/// log of recent attempts (time, attempt, outcome, status, next retry).
///
/// Keys: j/k move among the changes, r retries a failed one, x discards it.
@MainActor
package final class MutationsScreen: AppScreen {
    private let context: AppContext
    private var selection = 0
    private var message: String?

    /// Makes the screen.
    package init(context: AppContext, width: Int, height: Int) {
        self.context = context
    }

    package var title: String { "Sync" }

    package var status: String? { message }

    private var changes: [(change: ChangeSummary, failed: Bool)] {
        guard let actions = context.actions else { return [] }
        return actions.failedChanges.map { ($0, true) } + actions.pendingChanges.map { ($0, false) }
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
            .init([.character("r")], .retry, does: "retry", footer: "r"),
            .init([.character("x")], .discard, does: "discard (failed changes)", footer: "x"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else { return false }
        let list = changes
        switch command {
        case .next: selection = min(selection + 1, max(list.count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .retry, .discard:
            guard list.indices.contains(selection), list[selection].failed, let actions = context.actions
            else {
                message = "select a failed change first"
                return true
            }
            if command == .retry {
                actions.retry(list[selection].change)
                message = "retrying \(list[selection].change.title)"
            } else {
                actions.discard(list[selection].change)
                message = "discarded \(list[selection].change.title)"
            }
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
        if list.isEmpty { put(StyledLine("  everything is sent", style: style.secondary)) }
        for (index, entry) in list.enumerated() {
            var line = StyledLine(index == selection ? "▌" : " ", style: style.accent)
            line.append(entry.failed ? "✕ " : "⋯ ", style: entry.failed ? style.failure : style.pending)
            line.append(entry.change.title, style: style.text)
            line.append("  " + entry.change.detail, style: entry.failed ? style.failure : style.secondary)
            put(line)
        }
        y += 1
        put(StyledLine(" Attempts (newest first)", style: style.strong))
        let log = context.actions?.attemptLog(limit: max(rect.maxY - y, 0)) ?? []
        if log.isEmpty { put(StyledLine("  none yet", style: style.secondary)) }
        for line in log { put(StyledLine("  " + line, style: style.secondary)) }
        return nil
    }

    package func resize(width: Int, height: Int) {}
}
