import CommandLineKit
import Glibc
import Synchronization

/// The interactive terminal: raw mode, alternate screen, input events, and a guaranteed way
/// back.
///
/// `start()` saves the terminal's settings, switches to raw mode and the alternate screen,
/// hides the cursor, turns autowrap off and asks for focus reports (and bracketed paste, if
/// chosen). Everything is undone by `restore()`, and on every other way out: a thrown error
/// (through `run`), SIGINT, SIGTERM, SIGHUP or SIGQUIT (restored, then the process exits with
/// 128 + the signal's number, e.g. 130 for SIGINT), and `exit()` (an `atexit` hook).
/// SIGTSTP restores the terminal while the process is stopped; on SIGCONT raw mode comes back
/// and `.resumed` tells the app to redraw everything. SIGWINCH becomes `.resize(size)`.
///
/// Input is read and parsed on a background thread; `events` delivers keys, pastes, resizes
/// and focus changes as an `AsyncStream`, so the UI actor only ever awaits.
///
/// ```swift
/// try await Terminal.run { terminal in
///     let screen = Screen(size: terminal.size, colorMode: .detect(environment: env))
///     for await event in terminal.events {
///         if event == .key(.character("q")) { break }
///         // update state, draw into screen.buffer …
///         terminal.write(screen.commit().output)
///     }
/// }
/// ```
///
/// Not a terminal (stdin or stdout is a pipe or file): `init` throws a `TerminalError` with
/// code `.notATerminal`, which the app turns into advice to run headless.
public final class Terminal: Sendable {
    /// The options it was made with.
    public let options: TerminalOptions
    /// Keys, pastes, resizes, focus changes and resumes, in the order they happened. Ends
    /// when the terminal is restored or its input closes. Meant for one consumer.
    public let events: AsyncStream<InputEvent>
    /// The terminal's answers to queries (``TerminalReply``), apart from `events`: a reply is
    /// never a key press. Ends with `events`. Meant for one consumer at a time.
    public let replies: AsyncStream<TerminalReply>

    private let input: Int32
    private let output: Int32
    private let continuation: AsyncStream<InputEvent>.Continuation
    private let replyContinuation: AsyncStream<TerminalReply>.Continuation
    private let reader: InputReader
    private let signals = SignalWatcher(label: "TerminalUI.signals")
    private let phase = Mutex(Phase.created)

    private enum Phase {
        case created
        case started
        case restored
    }

    /// Makes a terminal on `input` and `output` (standard input and output by default).
    ///
    /// - Throws: `TerminalError` `.notATerminal` when either is not a terminal.
    public init(
        options: TerminalOptions = TerminalOptions(), input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO
    ) throws(TerminalError) {
        guard isatty(input) == 1 else { throw .notATerminal(fileDescriptor: input, role: "standard input") }
        guard isatty(output) == 1 else {
            throw .notATerminal(fileDescriptor: output, role: "standard output")
        }
        self.options = options
        self.input = input
        self.output = output
        let (events, continuation) = AsyncStream<InputEvent>.makeStream(bufferingPolicy: .unbounded)
        self.events = events
        self.continuation = continuation
        let (replies, replyContinuation) = AsyncStream<TerminalReply>.makeStream(bufferingPolicy: .unbounded)
        self.replies = replies
        self.replyContinuation = replyContinuation
        self.reader = try InputReader(
            input: input, escapeTimeoutMilliseconds: options.escapeTimeoutMilliseconds,
            continuation: continuation, replies: replyContinuation)
    }

    /// Runs `body` on the UI actor with a started terminal and restores it afterwards, whether `body` returns
    /// or throws. Signals and `exit()` are covered by `start()`.
    ///
    /// - Throws: `TerminalError` when the terminal cannot be set up, or what `body` throws.
    @MainActor
    public static func run<Result>(
        options: TerminalOptions = TerminalOptions(), _ body: @MainActor (Terminal) async throws -> Result
    ) async throws -> Result {
        let terminal = try Terminal(options: options)
        try terminal.start()
        do {
            let result = try await body(terminal)
            terminal.restore()
            return result
        } catch {
            terminal.restore()
            throw error
        }
    }

    /// The terminal's current size (80×24 when it cannot be read).
    public var size: TerminalSize {
        FileDescriptorIO.windowSize(output) ?? FileDescriptorIO.windowSize(input) ?? .standard
    }

    /// Enters raw mode and the options' screen modes, installs the signal handlers and the
    /// `atexit` hook, and starts reading input. Once only.
    ///
    /// - Throws: `TerminalError` when the settings cannot be read or applied, or another
    ///   terminal is started.
    public func start() throws(TerminalError) {
        let canStart = phase.withLock { phase -> Bool in
            guard case .created = phase else { return false }
            phase = .started
            return true
        }
        guard canStart else { return }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else {
            throw .systemCall("tcgetattr", fileDescriptor: input, errno: errno)
        }
        guard !TerminalRestorer.shared.isActive else { throw .alreadyActive() }
        // Signals first: from the moment raw mode is on, every way out restores it.
        if options.handlesSignals { installSignalHandlers() }
        do {
            try TerminalRestorer.shared.begin(
                TerminalRestorer.Session(
                    input: input, output: output, original: original, raw: RawMode.settings(from: original),
                    enterSequence: Array(options.enterSequence.utf8),
                    exitSequence: Array(options.exitSequence.utf8)))
        } catch {
            signals.uninstall()
            throw error
        }
        reader.start()
    }

    /// Writes `text` (a frame's output) to the terminal. Call it from one place at a time
    /// (the UI actor); bytes are written in full. While the process is suspended (ctrl-z, until
    /// `.resumed`) nothing is written: a frame drawn just after a continue, before the terminal
    /// is entered again, would land on the shell's screen; the app redraws everything on
    /// `.resumed`.
    public func write(_ text: String) {
        guard !text.isEmpty else { return }
        TerminalRestorer.shared.writeUnlessSuspended(output, Array(text.utf8))
    }

    /// Asks whether the terminal speaks the kitty graphics protocol, with the protocol's own
    /// query (``KittyGraphics/supportQuery(id:)``): true when its graphics answer comes before
    /// its device attributes; false when the device attributes come first, or nothing comes
    /// within `timeout`. Call it once the terminal is started and before anything else reads
    /// ``replies``; the answers never reach ``events``.
    public func supportsKittyGraphics(timeout: Duration = .milliseconds(300)) async -> Bool {
        let id = KittyGraphics.probeID
        write(KittyGraphics.supportQuery(id: id))
        return await KittyGraphicsProbe.answer(in: replies, id: id, timeout: timeout)
    }

    /// Sets `text` to be written when the terminal is put back for good (``restore()``, a
    /// terminating signal, `exit()`), before the screen modes are undone; a suspend does not
    /// write it. For commands that free what the app left in the terminal, such as
    /// ``KittyImageRegistry/farewellOutput``. Replaces what was set before.
    public func setFarewell(_ text: String) {
        TerminalRestorer.shared.setFarewell(Array(text.utf8))
    }

    /// Suspends like Ctrl-Z in a shell: restores the terminal (cooked mode, the shell's screen,
    /// the cursor, bracketed paste and focus reports off), stops the process with SIGSTOP, and
    /// when it is continued enters raw mode and the screen modes again and delivers `.resumed`,
    /// so the app redraws everything. Returns once the process runs again. For apps that map
    /// `.control("z")` to it (raw mode turns the key's signal off). Nothing happens unless the
    /// terminal is started.
    public func suspend() {
        suspend { Self.stopThisProcess() }
    }

    /// Stops the process and returns once it is continued. `raise` sends SIGSTOP to the calling
    /// thread, which stops before the call returns; `kill(getpid(), …)` lets the kernel pick any
    /// thread, and the caller may run on (and enter raw mode again) before the stop.
    static func stopThisProcess() {
        raise(SIGSTOP)
    }

    /// `suspend()` with `stop` in place of stopping the process.
    func suspend(stoppingWith stop: () -> Void) {
        guard TerminalRestorer.shared.suspend() else { return }
        stop()
        // With signals handled, the SIGCONT handler resumes, once (whoever stopped the process,
        // and after a continue without a stop too: a shell's `fg` after `kill -CONT`).
        if !options.handlesSignals, TerminalRestorer.shared.resume() { continuation.yield(.resumed) }
    }

    /// Puts the terminal back as `start()` found it, stops reading input, removes the signal
    /// handlers and ends `events`. Safe to call more than once, and before `start()`.
    public func restore() {
        let wasStarted = phase.withLock { phase -> Bool in
            defer { phase = .restored }
            if case .started = phase { return true }
            return false
        }
        reader.stop()
        guard wasStarted else {
            continuation.finish()
            replyContinuation.finish()
            return
        }
        TerminalRestorer.shared.end()
        signals.uninstall()
        continuation.finish()
        replyContinuation.finish()
    }

    /// The signals that end the process (the terminal is put back first).
    static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private func installSignalHandlers() {
        let continuation = self.continuation
        let output = self.output
        let input = self.input
        signals.install(Self.terminatingSignals + [SIGTSTP, SIGWINCH, SIGCONT]) { signalNumber in
            switch signalNumber {
            case SIGWINCH:
                if let size = FileDescriptorIO.windowSize(output) ?? FileDescriptorIO.windowSize(input) {
                    continuation.yield(.resize(size))
                }
            case SIGTSTP:
                // Suspend as asked, with the terminal put back first.
                guard TerminalRestorer.shared.suspend() else { return }
                Self.stopThisProcess()
            case SIGCONT:
                if TerminalRestorer.shared.resume() { continuation.yield(.resumed) }
            default:
                TerminalRestorer.shared.end()
                exit(128 + signalNumber)
            }
        }
    }
}
