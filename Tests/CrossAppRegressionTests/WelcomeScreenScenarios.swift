import AppRuntime
import AppTesting
import Backend
import Composition
import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Testing
import Wire

/// The welcome screen as a person meets it: every row reachable and drawn on the smallest
/// screen (50x20), the list's ends a key away, a listed account never signed in to on a single
/// misread Enter, and keys typed while the screen changes never acting on the next one. Each runs
/// on every app as shipped and on a variant whose onboarding lists accounts, so the listed-account
/// rules are seen in every app whatever its own provider lists.
@Suite @MainActor struct WelcomeScreenScenarios {
    /// A welcome screen that lists every account it is given, after creating one.
    struct ListingOnboarding: Onboarding {
        let title = "Welcome! Continue as an account you have, or create one."
        func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice] {
            [.createAccount] + existingAccounts.map { .continueAs($0, importsFollows: true) }
        }
    }

    /// Each app as shipped, and each with an onboarding that lists accounts.
    nonisolated static let variants: [Variant] = ShippedApp.all.flatMap {
        [Variant(app: $0, lists: false), Variant(app: $0, lists: true)]
    }

    /// An app as shipped, or rebound to ``ListingOnboarding``.
    struct Variant: CustomTestStringConvertible, Sendable {
        let app: ShippedApp
        let lists: Bool
        var testDescription: String { app.id + (lists ? " listing accounts" : "") }

        func definition() throws -> AppDefinition {
            guard lists else { return app.definition }
            return try app.rebinding(
                Provider(id: "test.listingOnboarding", fills: .onboarding) { _ in ListingOnboarding() })
        }
    }

    /// What the row at `index` of the welcome list says (its start, as drawn at any width).
    static func label(of index: Int, in onboarding: OnboardingScreen) -> String {
        guard onboarding.offered.indices.contains(index) else {
            return onboarding.offered.contains { if case .continueAs = $0 { true } else { false } }
                ? "Continue as another" : "Sign in to an"
        }
        switch onboarding.offered[index] {
        case .createAccount: return "Create a new account"
        case .continueAs(let account, _): return "Continue as \(account.displayName.prefix(8))"
        }
    }

    /// The lines of `frame` that are rows of the welcome list, top to bottom, and which is
    /// selected.
    static func rows(of frame: String) -> (labels: [String], selected: Int?) {
        var labels: [String] = []
        var selected: Int?
        for line in lines(frame) {
            let text = String(line)
            guard text.hasPrefix("  ▌ ") || text.hasPrefix("    ") else { continue }
            let label = String(text.dropFirst(4))
            guard ["Create a new", "Continue as", "Sign in to an"].contains(where: label.hasPrefix) else {
                continue
            }
            if text.hasPrefix("  ▌ ") { selected = labels.count }
            labels.append(label)
        }
        return (labels, selected)
    }

    @Test(arguments: variants)
    func everyRowAndField_isDrawn_at50x20(variant: Variant) async throws {
        // Given the welcome screen of a first launch in a 50x20 terminal
        let (session, _) = try await HeadlessHarness.firstLaunch(
            try variant.definition(), directories: try TestDirectories.make(), width: 50, height: 20)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        let rowCount = onboarding.offered.count + 1
        #expect(!variant.lists || rowCount > 8, "the variant lists more rows than fit: \(rowCount)")

        // When the selection walks down every row, then back up
        var walk = Array(0..<rowCount)
        walk += walk.reversed().dropFirst()
        for (step, index) in walk.enumerated() {
            if step > 0 { _ = shell.handle(.character(index > walk[step - 1] ? "j" : "k")) }
            let frame = HeadlessHarness.frame(of: session)
            let drawn = Self.rows(of: frame)
            let wanted = Self.label(of: index, in: onboarding)

            // Then the selected row is drawn, marked, with its neighbours in order around it
            let selected = try #require(drawn.selected, "\(variant) row \(index) is not drawn:\n\(frame)")
            #expect(drawn.labels[selected].hasPrefix(wanted), "\(variant) row \(index):\n\(frame)")
            if index > 0, selected > 0 {
                #expect(
                    drawn.labels[selected - 1].hasPrefix(Self.label(of: index - 1, in: onboarding)),
                    "\(variant) above row \(index):\n\(frame)")
            }
            if index + 1 < rowCount, selected + 1 < drawn.labels.count {
                #expect(
                    drawn.labels[selected + 1].hasPrefix(Self.label(of: index + 1, in: onboarding)),
                    "\(variant) below row \(index):\n\(frame)")
            }
            let hidden = rowCount - drawn.labels.count
            if hidden > 0 {
                #expect(frame.contains(" more"), "\(variant) says rows are out of view:\n\(frame)")
            }
        }

        // And the find field and its matches show under the last row
        _ = shell.handle(.end)
        _ = shell.handle(.enter)
        for character in "ad" { _ = shell.handle(.character(character)) }
        let finding = HeadlessHarness.frame(of: session)
        #expect(finding.contains("Find: ad"), "\(variant):\n\(finding)")
        #expect(finding.contains("@ada "), "\(variant) the match is drawn:\n\(finding)")
        let cursor = try #require(session.render().cursor, "the find field has the cursor")
        #expect(cursor.y < 19, "\(variant) the cursor is on screen: \(cursor)")

        // And creating an account shows the handle, then the password line
        _ = shell.handle(.escape)
        _ = shell.handle(.home)
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in "new_person" { _ = shell.handle(.character(character)) }
        #expect(HeadlessHarness.frame(of: session).contains("Handle: @new_person"), "\(variant)")
        _ = shell.handle(.enter)
        let password = HeadlessHarness.frame(of: session)
        #expect(password.contains("New account @new_person"), "\(variant):\n\(password)")
        #expect(password.contains("Password:"), "\(variant):\n\(password)")
        #expect(password.contains("0 of 8 characters at least"), "\(variant):\n\(password)")
    }

    @Test(arguments: variants)
    func theListsEnds_areOneKeyAway(variant: Variant) async throws {
        let (session, _) = try await HeadlessHarness.firstLaunch(
            try variant.definition(), directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        let last = onboarding.offered.count

        for (key, expected) in [(Key.character("G"), last), (.character("g"), 0), (.end, last), (.home, 0)] {
            _ = shell.handle(key)
            let drawn = Self.rows(of: HeadlessHarness.frame(of: session))
            let selected = try #require(drawn.selected)
            #expect(
                drawn.labels[selected].hasPrefix(Self.label(of: expected, in: onboarding)),
                "\(variant) \(key) selects row \(expected): \(drawn.labels)")
        }
    }

    /// Enter on a listed account asks first ("Continue as …? enter yes · esc no"); while it
    /// asks, typed text is not a command; esc goes back with nobody signed in.
    @Test(arguments: variants.filter(\.lists))
    func aListedAccount_isConfirmed_beforeContinuing(variant: Variant) async throws {
        let (session, _) = try await HeadlessHarness.firstLaunch(
            try variant.definition(), directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen)
        let first = try #require(
            onboarding.offered.firstIndex { if case .continueAs = $0 { true } else { false } })
        guard case .continueAs(let account, _) = onboarding.offered[first] else { return }
        for _ in 0..<first { _ = shell.handle(.character("j")) }

        // When Enter is pressed on it, then text is typed
        _ = shell.handle(.enter)
        for character in "hello r" { _ = shell.handle(.character(character)) }
        await session.settle()

        // Then nobody is signed in, and the screen asks
        #expect(shell.modal is OnboardingScreen, "\(variant) still on the welcome screen")
        let asking = HeadlessHarness.frame(of: session)
        #expect(asking.contains("Continue as \(account.displayName) (@\(account.handle))?"), "\(asking)")
        #expect(asking.contains("enter yes · esc no"), "\(asking)")

        // And esc goes back, nobody signed in; Enter, then Enter again continues as it
        _ = shell.handle(.escape)
        await session.settle()
        #expect(shell.modal is OnboardingScreen)
        #expect(!HeadlessHarness.frame(of: session).contains("enter yes · esc no"))
        _ = shell.handle(.enter)
        _ = shell.handle(.enter)
        await session.settle()
        let signedIn = shell.modal == nil || HeadlessHarness.frame(of: session).contains("Sign in as")
        #expect(
            signedIn, "\(variant) continues as @\(account.handle):\n\(HeadlessHarness.frame(of: session))")
    }

    /// Keys typed while the welcome screen gives way to Home are not Home's commands: a person
    /// typing what they took for a field must not like, repost or reply by it.
    @Test(arguments: ShippedApp.withHome)
    func keysTypedWhileTheScreenChanges_doNotActOnHome(app: ShippedApp) async throws {
        // Given a first launch, the handle and password of an account typed
        let directories = try TestDirectories.make()
        let (session, clock) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        _ = try #require(shell.modal as? OnboardingScreen)
        _ = shell.handle(.end)
        _ = shell.handle(.enter)
        for character in "grace" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        if HeadlessHarness.frame(of: session).contains("Password: ") {
            for character in DemoAccounts.password { _ = shell.handle(.character(character)) }
            _ = shell.handle(.enter)
        }
        await session.settle()
        try #require(shell.modal == nil, "\(app.id) signed in:\n\(HeadlessHarness.frame(of: session))")
        let commits = shell.context.manager.commitCount

        // When keys come at once, as if typed on in the same breath
        for character in "lsr" { _ = shell.handle(.character(character)) }
        await session.settle()

        // Then none acted: nothing is pending, the composer is not open, and the app says why
        #expect(shell.context.manager.commitCount == commits, "\(app.id) no like or repost was made")
        #expect(!(shell.currentScreen is ComposerScreen), "\(app.id) no reply was started")
        let frame = HeadlessHarness.frame(of: session)
        #expect(frame.contains("keys typed while signing in were not used"), "\(app.id):\n\(frame)")

        // And a moment later keys work again
        _ = clock.advance(by: .seconds(1))
        _ = shell.handle(.character("l"))
        await session.settle()
        #expect(shell.context.manager.commitCount > commits, "\(app.id) l likes the selected post")
    }

    /// A refusal longer than the screen is wide is shown whole on the welcome screen, wrapped,
    /// not cut at the edge of the status line.
    @Test(arguments: ShippedApp.all)
    func aLongRefusal_isShownWhole_at50Columns(app: ShippedApp) async throws {
        // Given an account with a long handle
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        let handle = "a_rather_long_handle_x24"
        try await BackendFixtures.createAccount(on: backend, handle: handle, displayName: "Long Handle")
        backend.close()
        let (session, _) = try await HeadlessHarness.firstLaunch(
            app.definition, directories: directories, width: 50, height: 20)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)

        // When a wrong password is given for it
        _ = shell.handle(.end)
        _ = shell.handle(.enter)
        for character in handle { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        for character in "not-the-password" { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()

        // Then every word of the refusal is on screen
        let frame = HeadlessHarness.frame(of: session)
        let words = "✕ wrong password for @\(handle); try again".split(separator: " ")
        let shown = frame.split { $0 == " " || $0.isNewline }
        #expect(words.allSatisfy { shown.contains($0) }, "\(app.id):\n\(frame)")
    }
}
