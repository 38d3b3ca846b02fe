import AppRuntime
import AppTesting
import Features
import Mutations
import Sockets
import TerminalUI
import Testing

/// What a terminal sends besides single keys: a paste is text for the field that has the focus
/// and never a run of shortcuts.
@Suite @MainActor struct TerminalInputScenarios {
    /// Three lines whose second and third would like a post and quit if they ran as keys.
    static let pasted = "first line\nl\nq 2"

    @Test(arguments: ShippedApp.withHome)
    func aPasteInTheComposer_isItsTextAndRunsNoKeys(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        #expect(shell.handle(.character("n")) == .handled)
        let composer = try #require(shell.currentScreen as? ComposerScreen)
        let composeTab = shell.activeTab
        let commits = shell.context.manager.commitCount

        let outcomes = TerminalInput.deliver(TerminalInput.pasteBytes(Self.pasted), to: shell)
        await session.settle()

        #expect(!outcomes.contains(.quit), "the paste quit the app")
        #expect(shell.activeTab == composeTab && shell.currentScreen === composer, "another screen opened")
        #expect(composer.text == Self.pasted)
        #expect(shell.context.manager.commitCount == commits, "the paste posted or liked something")
        let frame = HeadlessHarness.frame(of: session)
        #expect(frame.contains("first line") && frame.contains("q 2"), "the composer shows the paste")
    }

    @Test(arguments: ShippedApp.all)
    func aPasteOnTheHomeFeed_changesNothing(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let home = try #require(shell.currentScreen)
        let before = HeadlessHarness.frame(of: session)
        let commits = shell.context.manager.commitCount

        let outcomes = TerminalInput.deliver(TerminalInput.pasteBytes(Self.pasted), to: shell)
        await session.settle()

        #expect(outcomes == [.handled])
        #expect(shell.activeTab == 0 && shell.currentScreen === home)
        #expect(shell.context.manager.commitCount == commits)
        #expect(HeadlessHarness.frame(of: session) == before)
    }

    @Test(arguments: ShippedApp.all)
    func aPasteInOnboarding_isTheHandleOnOneLine_andIgnoredOnTheChoices(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try await HeadlessHarness.presentOnboarding(in: session)
        let choices = HeadlessHarness.frame(of: session)

        // On the choices a paste is ignored: "j" and a line break would choose another one.
        #expect(TerminalInput.deliver(TerminalInput.pasteBytes("j\nj\n"), to: shell) == [.handled])
        #expect(HeadlessHarness.frame(of: session) == choices)

        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        #expect(TerminalInput.deliver(TerminalInput.pasteBytes("new\nname"), to: shell) == [.handled])

        #expect(shell.currentScreen === onboarding)
        // One line, and the handle's rule: the line break (a space) is not a handle character.
        #expect(HeadlessHarness.frame(of: session).contains("Handle: @newname"))
    }

    /// Where a person may press Ctrl-Z.
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case home, composerWithText, help

        var testDescription: String { rawValue }
    }

    @Test(arguments: ShippedApp.withHome, Place.allCases)
    func controlZ_asksToSuspendAndChangesNothingElse(app: ShippedApp, place: Place) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        switch place {
        case .home: break
        case .composerWithText:
            shell.openTab(.compose)
            _ = TerminalInput.deliver(Array("draft".utf8), to: shell)
        case .help: _ = shell.handle(.character("?"))
        }
        let screen = try #require(shell.currentScreen)
        let tab = shell.activeTab

        let outcomes = TerminalInput.deliver([0x1A], to: shell)

        #expect(outcomes == [.suspend])
        #expect(shell.activeTab == tab && shell.currentScreen === screen)
        if place == .composerWithText { #expect((screen as? ComposerScreen)?.text == "draft") }
    }
}
