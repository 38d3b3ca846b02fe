import Glibc
@_spi(Testing) import TerminalUI
import TerminalUITesting
import Testing

/// These tests start real terminals on pseudo-terminals; one terminal may be started per
/// process at a time, so they run one after another.
@Suite(.serialized) struct TerminalTests {
    @Test func notATerminal_throwsAClearError() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        do {
            _ = try Terminal(input: fds[0], output: fds[1])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notATerminal)
            #expect(
                error.message
                    == "standard input (fd \(fds[0])) is not a terminal (it is a pipe or a file); "
                    + "a full-screen interface needs a terminal: run it in one, or render frames headless")
        }
    }

    @Test func startAndRestore_enterRawModeAndPutEverythingBack() throws {
        let pty = try PseudoTerminal()
        let before = pty.settingsSnapshot
        let terminal = try Terminal(
            options: TerminalOptions(usesBracketedPaste: true, handlesSignals: false), input: pty.terminal,
            output: pty.terminal)
        try terminal.start()
        #expect(pty.localFlags & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(terminal.size == TerminalSize(columns: 80, rows: 24))
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h\u{1B}[?2004h"
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)
        terminal.restore()
        #expect(pty.settingsSnapshot == before)
        let leave = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        #expect(pty.readOutput(atLeast: leave.utf8.count) == leave)
        terminal.restore()  // idempotent
        #expect(pty.readOutput(waitingUpTo: 20).isEmpty)
    }

    @Test func secondStartedTerminal_isRefused() throws {
        let pty = try PseudoTerminal()
        let first = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        try first.start()
        defer { first.restore() }
        let second = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        #expect(throws: TerminalError.self) { try second.start() }
    }

    @Test func typedBytes_arriveAsEvents() async throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            options: TerminalOptions(usesBracketedPaste: true, handlesSignals: false), input: pty.terminal,
            output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        pty.type(Array("\u{1B}[Aé\u{1B}[I\u{1B}[200~hi\u{1B}[201~".utf8))
        var received: [InputEvent] = []
        while received.count < 4, let event = await firstEvent(from: terminal.events) {
            received.append(event)
        }
        #expect(received == [.key(.up), .key(.character("é")), .focusGained, .paste("hi")])
        // A lone ESC is reported once the escape timeout passes with nothing after it.
        pty.type([0x1B])
        #expect(await firstEvent(from: terminal.events) == .key(.escape))
    }

    @Test func kittyQuery_answeredBeforeTheDeviceAttributes_isSupported_andTheRepliesAreNeverKeys()
        async throws
    {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h"
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)
        // The answer is typed first: the reader keeps replies until they are asked for, and no
        // test thread blocks on the pseudo-terminal while the probe waits.
        // A key typed while the answer comes in, and the answer in two writes.
        pty.type(Array("j\u{1B}_Gi=\(KittyGraphics.probeID);O".utf8))
        pty.type(Array("K\u{1B}\\\u{1B}[?62;4c".utf8))
        #expect(await terminal.supportsKittyGraphics(timeout: .seconds(30)))
        let query = KittyGraphics.supportQuery(id: KittyGraphics.probeID)
        #expect(pty.readOutput(atLeast: query.utf8.count) == query)
        #expect(await firstEvent(from: terminal.events) == .key(.character("j")))
        #expect(await firstEvent(from: terminal.events, within: 1) == nil, "no reply byte became a key")
    }

    @Test func kittyQuery_answeredOnlyWithDeviceAttributes_orNotAtAll_isNotSupported() async throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        pty.type(Array("\u{1B}[?1;2c".utf8))
        #expect(await terminal.supportsKittyGraphics(timeout: .seconds(30)) == false)
        #expect(
            await terminal.supportsKittyGraphics(timeout: .milliseconds(50)) == false, "silence: a timeout")
        #expect(await firstEvent(from: terminal.events, within: 1) == nil)
    }

    @Test func farewell_isWrittenWhenRestored_butNotOnASuspend() throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        try terminal.start()
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h"
        let leave = "\u{1B}[0m\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)
        let images = KittyImageRegistry(firstID: 70)
        _ = images.lines(for: try RGBImage(width: 1, height: 1, rgb: [1, 2, 3]), maxColumns: 1, maxLines: 1)
        terminal.setFarewell(images.farewellOutput)
        var whileStopped = ""
        terminal.suspendForTesting { whileStopped = pty.readOutput(atLeast: leave.utf8.count) }
        #expect(whileStopped == leave, "the images stay while the app is stopped")
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)
        terminal.restore()
        let farewell = KittyGraphics.delete(id: 70)
        #expect(pty.readOutput(atLeast: farewell.utf8.count + leave.utf8.count) == farewell + leave)
    }

    @Test func suspend_putsTheTerminalBackWhileStopped_andEntersItAgainWithAResume() async throws {
        let pty = try PseudoTerminal()
        let before = pty.settingsSnapshot
        let terminal = try Terminal(
            options: TerminalOptions(usesBracketedPaste: true, handlesSignals: false), input: pty.terminal,
            output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h\u{1B}[?2004h"
        let leave = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)

        var whileStopped: (output: String, settings: [UInt8])?
        terminal.suspendForTesting {
            whileStopped = (pty.readOutput(atLeast: leave.utf8.count), pty.settingsSnapshot)
        }

        #expect(whileStopped?.output == leave, "the shell's screen, the cursor, paste and focus reports off")
        #expect(whileStopped?.settings == before, "cooked mode while stopped")
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)
        #expect(pty.localFlags & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(await firstEvent(from: terminal.events) == .resumed, "the app is told to redraw all")
    }

    @Test func suspend_withSignalsHandled_isResumedOnce_byTheSIGCONTThatEndsTheStop() async throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(input: pty.terminal, output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h"
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter)

        // A real stop ends with SIGCONT (`fg`), which the terminal's handler hears.
        terminal.suspendForTesting {
            _ = pty.readOutput(atLeast: 1)
            kill(getpid(), SIGCONT)
        }

        #expect(await firstEvent(from: terminal.events) == .resumed)
        #expect(pty.readOutput(atLeast: enter.utf8.count) == enter, "entered again, once")
        #expect(await firstEvent(from: terminal.events, within: 1) == nil, "one redraw")
    }

    @Test func windowChange_arrivesAsAResizeEvent() async throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(input: pty.terminal, output: pty.terminal)
        try terminal.start()
        defer { terminal.restore() }
        pty.setSize(TerminalSize(columns: 100, rows: 30))
        kill(getpid(), SIGWINCH)
        let event = await firstEvent(from: terminal.events) { if case .resize = $0 { true } else { false } }
        #expect(event == .resize(TerminalSize(columns: 100, rows: 30)))
    }

    @Test func restore_givesSignalsTheirPreviousActionsBack() throws {
        // Each signal's handler address and flags (the rest of the struct is not compared:
        // the kernel leaves most of the mask unset).
        func actions() -> [[Int]] {
            [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGWINCH, SIGCONT].map { signalNumber in
                var action = sigaction()
                sigaction(signalNumber, nil, &action)
                return [unsafeBitCast(action.__sigaction_handler, to: Int.self), Int(action.sa_flags)]
            }
        }
        let before = actions()
        let pty = try PseudoTerminal()
        let terminal = try Terminal(input: pty.terminal, output: pty.terminal)
        try terminal.start()
        #expect(actions() != before)
        terminal.restore()
        #expect(actions() == before)
    }

    @Test func restore_endsTheEventStream() async throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            options: TerminalOptions(handlesSignals: false), input: pty.terminal, output: pty.terminal)
        try terminal.start()
        terminal.restore()
        var iterator = terminal.events.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func optionsOff_sendOnlyTheAutowrapToggle() throws {
        let pty = try PseudoTerminal()
        let options = TerminalOptions(
            usesAlternateScreen: false, hidesCursor: false, reportsFocus: false, handlesSignals: false)
        let terminal = try Terminal(options: options, input: pty.terminal, output: pty.terminal)
        try terminal.start()
        #expect(pty.readOutput(atLeast: 4) == "\u{1B}[?7l")
        terminal.restore()
        let leave = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h"
        #expect(pty.readOutput(atLeast: leave.utf8.count) == leave)
    }
}
