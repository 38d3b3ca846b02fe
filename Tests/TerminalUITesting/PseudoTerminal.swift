import Glibc
import TerminalUI

/// A pseudo-terminal pair for tests: the terminal side (`terminal`) is what a `Terminal`
/// runs on; the controlling side (`controller`) is where a test types keys and reads what
/// was written.
public final class PseudoTerminal {
    /// The controlling side's file descriptor.
    public let controller: Int32
    /// The terminal side's file descriptor (a TTY).
    public let terminal: Int32

    /// Why a pseudo-terminal could not be opened.
    public struct OpenError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Opens a pair of `size`.
    public init(size: TerminalSize = TerminalSize(columns: 80, rows: 24)) throws {
        // posix_openpt and friends are not visible to Swift; do what they do with the
        // Linux ioctls (TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned)).
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw OpenError(description: "open(/dev/ptmx) failed: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0
        else {
            close(controller)
            throw OpenError(description: "unlocking /dev/ptmx failed: errno \(errno)")
        }
        let name = "/dev/pts/\(number)"
        let terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(controller)
            throw OpenError(description: "open(\(name)) failed: errno \(errno)")
        }
        self.controller = controller
        self.terminal = terminal
        setSize(size)
    }

    deinit {
        close(terminal)
        close(controller)
    }

    /// Sets the window size the terminal side reports.
    public func setSize(_ size: TerminalSize) {
        var window = winsize(
            ws_row: UInt16(size.rows), ws_col: UInt16(size.columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(controller, UInt(TIOCSWINSZ), &window)
    }

    /// Types `bytes` as if from the keyboard.
    public func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// What was written to the terminal side and not read yet: waits until at least
    /// `byteCount` bytes have arrived (or `limit` passes: hang detection only, as bytes cross the
    /// pseudo-terminal on a kernel thread that a busy machine may run late), then takes whatever
    /// follows within 20 ms, so extra bytes show too.
    public func readOutput(atLeast byteCount: Int, within limit: Duration = .seconds(10)) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while true {
            let wait: Int32 = bytes.count >= byteCount ? 20 : 100
            var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, wait) > 0 else {
                if bytes.count >= byteCount || ContinuousClock.now >= deadline { break }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything written to the terminal side so far that has not been read (waits up to
    /// `milliseconds` for the first byte). For output that is expected, `readOutput(atLeast:)`.
    public func readOutput(waitingUpTo milliseconds: Int32 = 200) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var wait = milliseconds
        while true {
            var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, wait) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            wait = 20
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The terminal side's local flags (ICANON, ECHO, ISIG …).
    public var localFlags: tcflag_t {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings.c_lflag
    }

    /// The terminal side's full settings, for before/after comparisons.
    public var settingsSnapshot: [UInt8] {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return withUnsafeBytes(of: &settings) { Array($0) }
    }
}

/// The first event from `events` that `matches`, or nil when none comes within `seconds`.
/// A safety net so a broken input path fails instead of hanging; not a speed check.
public func firstEvent(
    from events: AsyncStream<InputEvent>, within seconds: Int = 10,
    matching matches: @escaping @Sendable (InputEvent) -> Bool = { _ in true }
) async -> InputEvent? {
    await withTaskGroup(of: InputEvent?.self) { group in
        group.addTask {
            for await event in events where matches(event) { return event }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
