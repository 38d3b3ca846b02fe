import AppRuntime
import AppTesting
import Composition
import Features
import Foundation
import MediaModel
import Sockets
import TerminalUI
import Testing
import Wire

/// Journeys a person takes on a first day with either app, checked as they would look at them:
/// the first launch through the real welcome screen, every tab and back, and a post composed
/// from a paste, left with esc and finished later.
@Suite @MainActor struct JourneyScenarios {
    /// A first launch that makes a new account lands on that account's Home, its profile says
    /// it is new, and the next launch goes straight in as the same account.
    @Test(arguments: ShippedApp.withHome)
    func firstLaunch_makingAnAccount_landsOnItsOwnHome_andTheNextLaunchSkipsTheWelcome(app: ShippedApp)
        async throws
    {
        let handle = "day_one_\(app.id.prefix(3))"
        let (session, clock) = try await HeadlessHarness.firstLaunch(
            app.definition, directories: try TestDirectories.make())
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen, "\(app.id): the welcome screen")
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in handle { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        for character in "first-day-pass" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()

        #expect(shell.modal == nil, "\(app.id): the welcome screen is gone")
        #expect(shell.context.viewer?.handle == handle)
        // A person reads Home before typing for it (keys in the first moment are not used).
        _ = clock.advance(by: .seconds(1))
        let home = lines(HeadlessHarness.frame(of: session))
        #expect(
            home[0].hasPrefix(app.titlePrefix + " · Home") && home[0].hasSuffix("@" + handle), "\(home[0])")
        #expect(home.contains { $0.contains("Nothing here yet") }, "a new account follows no one yet")
        #expect(home.last?.hasPrefix("[1 ") == true, "Home is the tab shown: \(home.last ?? "")")

        shell.openTab(.profile)
        await session.settle()
        let profile = HeadlessHarness.frame(of: session)
        #expect(profile.contains("@" + handle), "\(app.id):\n\(profile)")
        #expect(profile.contains("0 posts · 0 followers · 0 following"), "\(app.id):\n\(profile)")

        // The new account's first post is theirs: at the top of Home, under their handle, while
        // it waits for the network and once the server has it.
        let network = try #require(shell.context.faultControl)
        network.setFaultProfile(try #require(FaultProfile.named("offline")))
        session.networkDidChange()
        shell.openTab(.compose)
        for character in "First light" { _ = shell.handle(.character(character)) }
        let registry = shell.context.registry
        if !registry[.feedPolicy].shows(.text) || registry[.composerPolicy].media == .required {
            try TestPhotos.attachSample(in: shell)
        }
        _ = shell.handle(.enter)
        await session.settle()
        shell.openTab(.home)
        let pending = HeadlessHarness.frame(of: session)
        #expect(
            selectedHeader(pending)?.contains("@" + handle) == true, "\(app.id) while sending:\n\(pending)")
        network.setFaultProfile(try #require(FaultProfile.named("perfect")))
        session.networkDidChange()
        await session.settle()
        let posted = HeadlessHarness.frame(of: session)
        #expect(selectedHeader(posted)?.contains("@" + handle) == true, "\(app.id) once sent:\n\(posted)")
        #expect(posted.components(separatedBy: "First light").count == 2, "once:\n\(posted)")

        try await session.restart()
        await session.settle()
        #expect(session.shell?.modal == nil, "\(app.id): the next launch skips the welcome screen")
        #expect(session.shell?.context.viewer?.handle == handle, "and is the same account")
        await session.stop()
    }

    /// Where the welcome screen offers existing accounts, continuing as the first one lands on
    /// its Home, full of the posts it follows, signed in as it.
    @Test(arguments: ShippedApp.withHome)
    func firstLaunch_continuingAsAListedAccount_landsOnItsFullHome(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.firstLaunch(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        let listed = onboarding.offered.enumerated().compactMap { index, choice -> (Int, String)? in
            if case .continueAs(let account, _) = choice { return (index, account.handle) }
            return nil
        }
        guard let (index, handle) = listed.first else {
            #expect(!HeadlessHarness.frame(of: session).contains("Continue as"), "\(app.id) offers none")
            return
        }
        for _ in 0..<index { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        let asked = HeadlessHarness.frame(of: session)
        #expect(asked.contains("(@\(handle))?"), "\(app.id) asks before continuing:\n\(asked)")
        _ = shell.handle(.enter)
        await session.settle()

        #expect(shell.modal == nil)
        #expect(shell.context.viewer?.handle == handle, "\(app.id) continued as @\(handle)")
        let feed = try #require(shell.currentScreen as? FeedScreen)
        #expect(!feed.items.isEmpty, "\(app.id): @\(handle)'s Home has posts")
        let frame = HeadlessHarness.frame(of: session)
        #expect(lines(frame)[0].hasSuffix("@" + handle), "\(frame)")
        #expect(selectedHeader(frame) != nil, "the first post is selected:\n\(frame)")
    }

    /// Every tab opens its own screen (named in the title, marked in the tab bar), and Home comes
    /// back exactly as it was left: same post selected, same frame.
    @Test(arguments: ShippedApp.all)
    func everyTab_opensItsScreen_andHomeComesBackExactlyAsLeft(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        for _ in 0..<2 { _ = shell.handle(.character("j")) }
        await session.settle()
        let home = HeadlessHarness.frame(of: session)
        let tabs = shell.context.registry.with(.tabs) { $0.tabs }

        var titles: [Substring] = []
        for index in tabs.indices.dropFirst() {
            // A digit is text while a text field has the focus (the composer's): esc leaves it.
            if shell.currentScreen?.capturesText == true { _ = shell.handle(.escape) }
            _ = shell.handle(.character(Character("\(index + 1)")))
            await session.settle()
            let rows = lines(HeadlessHarness.frame(of: session))
            titles.append(rows[0])
            #expect(rows.count == 24, "\(app.id) tab \(index + 1) fills the screen")
            #expect(
                rows.last?.contains("[\(index + 1) ") == true,
                "\(app.id): the tab bar marks tab \(index + 1): \(rows.last ?? "")")
            #expect(rows[0] != lines(home)[0], "\(app.id): tab \(index + 1) has its own title: \(rows[0])")
        }
        #expect(Set(titles).count == titles.count, "\(app.id): every tab's title differs: \(titles)")

        if shell.currentScreen?.capturesText == true { _ = shell.handle(.escape) }
        _ = shell.handle(.character("1"))
        await session.settle()
        #expect(HeadlessHarness.frame(of: session) == home, "\(app.id): Home as it was left")
    }

    /// A post begun with a paste, left with esc, opened again and finished is posted once: it is
    /// Home's first post, the post that was first is right below it, and the draft is gone.
    @Test(arguments: ShippedApp.withHome)
    func composing_aPasteThenEscThenBack_postsTheWholeTextOnce_aboveTheOldTop(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let registry = shell.context.registry
        let feed = try #require(shell.currentScreen as? FeedScreen)
        let oldTop = try #require(feed.items.first?.media.id)
        let pasted = "Tide tables\nfor Sunday"

        _ = shell.handle(.character("n"))
        _ = TerminalInput.deliver(TerminalInput.pasteBytes(pasted), to: shell)
        _ = shell.handle(.escape)
        #expect(!(shell.currentScreen is ComposerScreen), "esc leaves the composer")
        _ = shell.handle(.character("n"))
        let composer = try #require(shell.currentScreen as? ComposerScreen)
        #expect(composer.text == pasted, "\(app.id): the pasted draft is back")
        for character in " at the pier" { _ = shell.handle(.character(character)) }
        if !registry[.feedPolicy].shows(.text) || registry[.composerPolicy].media == .required {
            try TestPhotos.attachSample(in: shell)
        }
        _ = shell.handle(.enter)
        await session.settle()
        shell.openTab(.home)
        await session.settle()

        let text = pasted + " at the pier"
        let home = try #require(shell.currentScreen as? FeedScreen)
        let ours = home.items.filter { $0.media.text == text }
        #expect(ours.count == 1, "\(app.id): the post is on Home once, found \(ours.count)")
        #expect(home.items.first?.media.text == text, "\(app.id): at the top")
        #expect(home.items.dropFirst().first?.media.id == oldTop, "\(app.id): the old top right below it")
        #expect(home.items.first?.isConfirmed == true, "\(app.id): confirmed")
        shell.openTab(.compose)
        #expect(
            (shell.currentScreen as? ComposerScreen)?.text.isEmpty == true, "the draft is gone once posted")
        let frame = HeadlessHarness.frame(of: session)
        #expect(!frame.contains("Tide tables"), "\(app.id): an empty composer:\n\(frame)")
    }
}
