import AppRuntime
import Features
import TerminalUI

/// What a terminal sends an app, for scenarios that drive a live session the way a person at a
/// terminal does: the bytes go through the same decoder as in a terminal and each event reaches
/// the shell as the interactive runner delivers it.
package enum TerminalInput {
    /// The bytes a terminal sends when `text` is pasted into an app that started its terminal
    /// with `options`: between `ESC[200~` and `ESC[201~` when the app asked for bracketed paste;
    /// otherwise as if typed, line breaks as carriage returns (what xterm and tmux send).
    package static func pasteBytes(
        _ text: String, options: TerminalOptions = InteractiveRunner.terminalOptions
    ) -> [UInt8] {
        guard options.usesBracketedPaste else {
            return text.utf8.map { $0 == 0x0A ? 0x0D : $0 }
        }
        return Array("\u{1B}[200~".utf8) + Array(text.utf8) + Array("\u{1B}[201~".utf8)
    }

    /// Decodes `bytes` as the terminal's reader does and hands each event to `shell`, in order,
    /// stopping after one that quits. Returns each event's outcome.
    @MainActor
    package static func deliver(_ bytes: [UInt8], to shell: AppShell) -> [AppShell.KeyOutcome] {
        var parser = KeyParser()
        var outcomes: [AppShell.KeyOutcome] = []
        for event in parser.parse(bytes) + parser.flush() {
            let outcome = shell.handle(event)
            outcomes.append(outcome)
            if outcome == .quit { break }
        }
        return outcomes
    }
}
