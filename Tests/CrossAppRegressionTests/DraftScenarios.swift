import AppRuntime
import AppTesting
import Features
import Sockets
import TerminalUI
import Testing

/// A draft is never lost: esc leaves the composer and keeps it, it survives other tabs and a
/// restart, and only an explicit, confirmed discard (or posting) removes it. The composer always
/// opens with the text focused.
@Suite @MainActor struct DraftScenarios {
    @Test(arguments: ShippedApp.all)
    func aDraft_survivesEscOtherTabsAndARestart_untilDiscardedWithAConfirm(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        let words = "Half a thought about the harbor"
        func composer() throws -> ComposerScreen {
            session.shell?.openTab(.compose)
            return try #require(session.shell?.currentScreen as? ComposerScreen)
        }
        func type(_ text: String) {
            for character in text { _ = session.shell?.handle(.character(character)) }
        }

        _ = try composer()
        type(words)
        _ = session.shell?.handle(.escape)
        #expect(session.shell?.currentScreen is ComposerScreen == false, "\(app.id): esc leaves the composer")
        #expect(HeadlessHarness.frame(of: session).contains("draft kept"), "and says the draft is kept")
        #expect(try composer().text == words, "\(app.id): back in the composer, the draft is there")

        session.shell?.openTab(.home)
        try await session.restart()
        #expect(try composer().text == words, "\(app.id): a restart keeps the draft")

        _ = session.shell?.handle(.control("d"))
        #expect(try composer().text == words, "one ctrl-d only asks")
        #expect(HeadlessHarness.frame(of: session).contains("ctrl-d again"), "and says how to confirm")
        _ = session.shell?.handle(.control("d"))
        #expect(try composer().text.isEmpty, "\(app.id): the confirmed discard empties it")
        try await session.restart()
        #expect(try composer().text.isEmpty, "and it stays discarded after a restart")
        await session.stop()
    }

    @Test(arguments: ShippedApp.all)
    func theComposer_opensWithTheTextFocused_evenIfThePickerHadIt(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        session.shell?.openTab(.compose)
        let composer = try #require(session.shell?.currentScreen as? ComposerScreen)
        try composer.attach(path: try TestPhotos.sample())
        _ = session.shell?.handle(.tab)
        #expect(!composer.capturesText, "\(app.id): tab gave the photos the focus")
        _ = session.shell?.handle(.escape)
        session.shell?.openTab(.compose)
        for character in "caption" { _ = session.shell?.handle(.character(character)) }
        #expect(composer.text == "caption", "\(app.id): typing goes to the text")
    }
}
