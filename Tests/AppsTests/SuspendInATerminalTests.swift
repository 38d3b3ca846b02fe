import AppTesting
import CommandLineKit
import Foundation
import Glibc
import TerminalUI
import TerminalUITesting
import Testing

/// Ctrl-Z in a real terminal: the app binary runs on a pseudo-terminal in a process of its own,
/// stops when the key is typed, and draws its whole frame again when continued.
@Suite struct SuspendInATerminalTests {
    @Test func controlZ_stopsTheApp_withTheTerminalPutBack_andContinuingRedrawsTheFrame() throws {
        // Any app: suspending is the shared runner's. One whose feed shows text first: photo art
        // decoded after the launch would redraw rows while the test reads the terminal.
        let app = try #require(ShippedApp.first { !$0.requiresPhoto } ?? ShippedApp.all.first)
        let launched = try AppInATerminal.Launched(app.id, directories: try TestDirectories.make())
        let (pty, pid) = (launched.pty, launched.pid)
        let leave = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?1004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1004h\u{1B}[?2004h"
        let title = " · Home"  // the title bar (its two halves have styles of their own)

        let first = AppInATerminal.read(pty, until: title)
        try #require(first.hasPrefix(enter), "the app entered the terminal with bracketed paste on")
        try #require(first.contains(title), "the first frame: \(first.debugDescription)")
        _ = pty.readOutput(waitingUpTo: 200)  // the rest of the first frames

        pty.type([0x1A])
        let stopped = try #require(
            launched.waitForState(flags: WUNTRACED), "the app did not stop")
        #expect(stopped & 0xFF == 0x7F, "stopped (raw status \(stopped))")
        #expect(
            AppInATerminal.read(pty, until: leave).hasSuffix(leave),
            "the terminal was put back before the stop")

        kill(pid, SIGCONT)
        let continued = try #require(launched.waitForState(flags: WCONTINUED), "no continue")
        #expect(continued == 0xFFFF)
        let again = AppInATerminal.read(pty, until: title)
        #expect(again.hasPrefix(enter), "raw mode, the alternate screen and bracketed paste again")
        #expect(again.contains(title), "the whole frame is drawn again, unchanged lines included")

        pty.type(Array("q".utf8))
        let exited = try #require(launched.waitForState(), "the app did not quit")
        #expect(exited == 0, "exit status 0 (raw status \(exited))")
    }
}
