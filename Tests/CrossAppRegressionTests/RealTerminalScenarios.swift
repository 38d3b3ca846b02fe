import AppTesting
import Foundation
import Glibc
import Sockets
import TerminalUITesting
import Testing

/// Each app's executable in a real (pseudo-)terminal, as a person runs it: it draws, sits idle
/// without spinning, follows keys, and on `q` quits with the terminal as it found it.
@Suite struct RealTerminalScenarios {
    @Test(arguments: ShippedApp.all)
    func inATerminal_theAppRestsWhenIdle_followsKeys_andQuitsWithTheTerminalPutBack(app: ShippedApp) throws {
        let launched = try AppInATerminal.Launched(app.id, directories: try TestDirectories.make())
        let (pty, pid) = (launched.pty, launched.pid)

        // Given the app's first frame in the terminal (its title bar names the account)
        let first = AppInATerminal.read(pty, until: "@ada")
        try #require(
            first.contains("@ada"), "\(app.id): the first frame: \(first.suffix(300).debugDescription)")
        // (the launch's refresh, photos and inbox come in: let them settle)
        AppInATerminal.drain(pty, for: .milliseconds(1500))

        // When nothing happens for two seconds, then the app waits on the keyboard instead of
        // spinning: a small share of one core (an app polling without waiting takes all of it)
        let idleStart = try #require(AppInATerminal.cpuSeconds(of: pid))
        AppInATerminal.drain(pty, for: .seconds(2))
        let idle = try #require(AppInATerminal.cpuSeconds(of: pid)) - idleStart
        #expect(idle < 0.4, "\(app.id): \(idle) s of CPU in 2 s of doing nothing")

        // When the person moves down and up, then the screen follows (on a list to move in:
        // the seed gives Home posts, but no conversations)
        pty.type(Array("j".utf8))
        let moved = pty.readOutput(waitingUpTo: 1000)
        if app.hasTab(.home) { #expect(!moved.isEmpty, "\(app.id): j changed nothing on screen") }
        pty.type(Array("k".utf8))
        _ = pty.readOutput(waitingUpTo: 500)

        // When they quit, then the app exits 0 within seconds, having left the alternate screen
        // and shown the cursor, and the terminal's line editing and echo are back
        pty.type(Array("q".utf8))
        let exited = launched.waitForState(within: .seconds(20))
        #expect(exited == 0, "\(app.id): the app quit with raw status \(String(describing: exited))")
        let last = pty.readOutput(waitingUpTo: 200)
        let leave = "\u{1B}[?25h\u{1B}[?1049l"
        #expect(
            (moved + last).contains(leave),
            "\(app.id): the terminal was not handed back: \(last.suffix(80).debugDescription)")
        let modes = tcflag_t(ICANON | ECHO | ISIG)
        #expect(
            pty.localFlags & modes == launched.flagsBefore & modes,
            "\(app.id): line editing and echo are back")
    }
}
