/// What `Terminal.start()` turns on. Everything it turns on, `restore()` turns off.
public struct TerminalOptions: Hashable, Sendable {
    /// Switch to the alternate screen, so the shell's screen comes back on exit.
    public var usesAlternateScreen: Bool
    /// Hide the cursor (`Screen.cursor` shows it where text is edited).
    public var hidesCursor: Bool
    /// Ask for focus in/out reports (`CSI ?1004h`), delivered as `.focusGained`/`.focusLost`.
    public var reportsFocus: Bool
    /// Ask for bracketed paste (`CSI ?2004h`), delivered as `.paste(text)`.
    public var usesBracketedPaste: Bool
    /// Handle SIGINT, SIGTERM, SIGHUP and SIGQUIT (restore, then exit with 128 + signal) and
    /// SIGTSTP/SIGCONT (restore while stopped, re-enter on resume).
    public var handlesSignals: Bool
    /// How long a lone ESC waits for the rest of a sequence before it counts as Escape.
    public var escapeTimeoutMilliseconds: Int

    /// Makes options; the defaults suit a full-screen app.
    public init(
        usesAlternateScreen: Bool = true, hidesCursor: Bool = true, reportsFocus: Bool = true,
        usesBracketedPaste: Bool = false, handlesSignals: Bool = true, escapeTimeoutMilliseconds: Int = 50
    ) {
        self.usesAlternateScreen = usesAlternateScreen
        self.hidesCursor = hidesCursor
        self.reportsFocus = reportsFocus
        self.usesBracketedPaste = usesBracketedPaste
        self.handlesSignals = handlesSignals
        self.escapeTimeoutMilliseconds = escapeTimeoutMilliseconds
    }

    /// The sequence that turns the options on (autowrap goes off: frames position every
    /// run themselves, and writing the last column must not scroll).
    var enterSequence: String {
        var sequence = ""
        if usesAlternateScreen { sequence += "\u{1B}[?1049h" }
        if hidesCursor { sequence += "\u{1B}[?25l" }
        sequence += "\u{1B}[?7l"
        if reportsFocus { sequence += "\u{1B}[?1004h" }
        if usesBracketedPaste { sequence += "\u{1B}[?2004h" }
        return sequence
    }

    /// The sequence that turns them off again and resets the pen.
    var exitSequence: String {
        var sequence = "\u{1B}[0m"
        if usesBracketedPaste { sequence += "\u{1B}[?2004l" }
        if reportsFocus { sequence += "\u{1B}[?1004l" }
        sequence += "\u{1B}[?7h\u{1B}[?25h"
        if usesAlternateScreen { sequence += "\u{1B}[?1049l" }
        return sequence
    }
}
