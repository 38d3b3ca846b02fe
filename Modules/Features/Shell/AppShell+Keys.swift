import Sockets
import TerminalUI
import Wire

extension AppShell {
    /// What the shell's own keys do.
    package enum Command: Sendable, Equatable {
        /// Pop the active tab's stack.
        case back
        /// Open the composer's tab.
        case newPost
        /// Open "Find people" on the active tab's stack.
        case findPeople
        /// Open the tab at this index.
        case tab(Int)
        /// Show the `?` overlay.
        case help
        /// Quit the app.
        case quit
        /// Suspend the app, as Ctrl-Z does in a shell (raw mode turns the key's signal off).
        case suspend
    }

    /// The shell's keys: the one place to add one. A key goes to the screen shown first (its own
    /// table), then here; the help lists the screen's keys, then these. Suspending is the one
    /// exception: Ctrl-Z works everywhere (text fields, the help, onboarding) and comes first.
    package var keys: KeyTable<Command> { Self.keys(tabs: tabs) }

    /// The shell's keys in an app showing `tabs`.
    nonisolated package static func keys(tabs: [Tab]) -> KeyTable<Command> {
        let titles = tabs.map(\.title).joined(separator: ", ")
        // `n` opens the composer's tab: an app without one (a messaging app) has no such key.
        let newPost: [KeyTable<Command>.Row] =
            tabs.contains { $0.destination == .compose }
            ? [.init([.character("n")], .newPost, does: "new post")] : []
        return KeyTable(
            [.init([.escape, .backspace], .back, does: "back")] + newPost + [
                .init([.character("/")], .findPeople, does: "find people"),
                .init(
                    tabs.indices.map { (Key.character(Character("\($0 + 1)")), Command.tab($0)) },
                    label: tabs.count > 1 ? "1–\(tabs.count)" : "1", does: titles),
                .init([.character("?")], .help, does: "this help"),
                .init([.character("q"), .control("c")], .quit, does: "quit"),
                .init([.control("z")], .suspend, does: "suspend (fg resumes)"),
            ])
    }

    /// The shell's keys that work over a modal screen (onboarding): the help, quitting and
    /// suspending; the help lists only these beside the screen's own.
    package var modalKeys: KeyTable<Command> {
        KeyTable(
            keys.rows.filter { row in
                row.commands.allSatisfy { [.help, .quit, .suspend].contains($0.command) }
            })
    }

    /// What the status line says of a key that does nothing on the screen shown.
    static func doesNothing(_ key: Key) -> String {
        let name = key == .character(" ") ? "space" : key.description
        return "\(name) does nothing here; ? for help"
    }

    /// Routes a key: suspending first, then the help overlay, then the screen, then the shell's
    /// own keys. While the screen takes text, printable keys are the screen's; with a modal
    /// screen (onboarding), only the help, quitting and suspending work. A key nobody takes says
    /// so on the status line ("Z does nothing here; ? for help") until the next key.
    package func handle(_ key: Key) -> KeyOutcome {
        // What is shown stays as it is, to be drawn again on resume.
        if keys.command(for: key) == .suspend { return .suspend }
        message = nil
        liveMessage = nil
        if let settlesUntil, context.clock.now < settlesUntil, key != .control("c") {
            message = "keys typed while signing in were not used"
            setNeedsDisplay()
            return .handled
        }
        settlesUntil = nil
        if showingHelp {
            // Space (or pgdn) turns a help of several pages; on its last page, and any other
            // key, closes it.
            let screen = currentScreen
            let pages = HelpOverlay.pageCount(
                in: Rect(x: 0, y: 2, width: width, height: contentSize.height), title: screen?.title ?? "",
                screen: screen?.keyBindings ?? [], shell: (modal == nil ? keys : modalKeys).bindings)
            if [.character(" "), .pageDown].contains(key), helpPage + 1 < pages {
                helpPage += 1
            } else if key == .pageUp, helpPage > 0 {
                helpPage -= 1
            } else {
                showingHelp = false
            }
            setNeedsDisplay()
            return key == .character("q") ? .quit : .handled
        }
        if let screen = currentScreen, screen.handle(key) {
            setNeedsDisplay()
            return .handled
        }
        let command = (modal == nil ? keys : modalKeys).command(
            for: key, typing: currentScreen?.capturesText ?? false)
        switch command {
        case .quit: return .quit
        case .suspend: return .suspend
        case .help: showingHelp = true
        case .tab(let index): openTab(at: index)
        case .back: pop()
        case .newPost: openTab(.compose)
        case .findPeople:
            let size = contentSize
            push(PeopleScreen(context: context, width: size.width, height: size.height))
        case nil: message = Self.doesNothing(key)
        }
        setNeedsDisplay()
        return .handled
    }

    /// Routes what the terminal reported: a key as `handle(_:)` does; a paste, whole, to the text
    /// field of the screen shown, or nowhere when none has the focus (or the help is open), so
    /// pasted text never runs as keys. Other events are not the shell's.
    package func handle(_ event: InputEvent) -> KeyOutcome {
        switch event {
        case .key(let key):
            return handle(key)
        case .paste(let text):
            if !showingHelp, let screen = currentScreen, screen.paste(text) { setNeedsDisplay() }
            return .handled
        case .resize, .focusGained, .focusLost, .resumed:
            return .handled
        }
    }
}
