import AppRuntime
import AppTesting
import Features
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Testing

/// Getting back in to an account made in the app: after signing out, or after the server ended
/// the session, the welcome screen offers to sign in to an existing account (its handle or
/// name, then its password), whatever its `onboarding` provider lists, and that signs in as it.
@Suite @MainActor struct SignBackInScenarios {
    /// The handle of the account the person makes.
    static let handle = "pia_photo"
    /// Its password.
    static let password = "pia-secret-9"

    /// Made in the app, signed out with `--sign-out`: the next launch's welcome screen offers a
    /// way back in, and the handle then the password sign in as that account.
    @Test(arguments: ShippedApp.all)
    func afterSigningOut_theWelcomeSignsBackInToTheAccountMadeHere(app: ShippedApp) async throws {
        // Given an account made in the app, then signed out
        let directories = try TestDirectories.make()
        let made = try await Self.makeAccount(app, directories)
        await made.stop()
        let signedOut = await IdentityScenarios.signOut(app, directories)
        try #require(signedOut.status == 0, "\(app.id): \(signedOut.error)")
        #expect(SessionStore(dataDirectory: directories.data).load() == nil)

        // When the app is launched again on the same data directory
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }

        // Then the welcome screen signs back in to it, and the session is saved
        try await Self.signBackIn(app, session)
        #expect(SessionStore(dataDirectory: directories.data).load()?.handle == Self.handle)
    }

    /// The server ended the session (signed out elsewhere): the launch says so, and the same
    /// way back in signs in as the account again.
    @Test(arguments: ShippedApp.all)
    func afterTheSessionEnded_theWelcomeSignsBackInToTheAccountMadeHere(app: ShippedApp) async throws {
        // Given an account made in the app whose session the server no longer takes
        let directories = try TestDirectories.make()
        let made = try await Self.makeAccount(app, directories)
        try await made.shell?.context.client.signOut()
        await made.stop()
        let ended = try #require(SessionStore(dataDirectory: directories.data).load())
        #expect(ended.handle == Self.handle)

        // When the app is launched again
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let frame = HeadlessHarness.frame(of: session)
        #expect(
            frame.contains("your session as @\(Self.handle) ended; sign in again"), "\(app.id):\n\(frame)")
        // And the title bar names nobody: no one is signed in until the person signs in again
        #expect(lines(frame).first?.hasSuffix("· Welcome") == true, "\(app.id):\n\(frame)")

        // Then the welcome screen signs back in to it, with a new session saved, and the title
        // bar names the account again
        try await Self.signBackIn(app, session)
        let home = HeadlessHarness.frame(of: session)
        #expect(lines(home).first?.hasSuffix("@\(Self.handle)") == true, "\(app.id):\n\(home)")
        let saved = SessionStore(dataDirectory: directories.data).load()
        #expect(saved?.handle == Self.handle)
        #expect(saved?.token != ended.token, "the ended session is replaced")
    }

    // MARK: Helpers

    /// Makes @pia_photo through the welcome screen of a first launch on `directories`, as a
    /// person does (handle, then password); returns the signed-in session (stop it when done).
    static func makeAccount(_ app: ShippedApp, _ directories: TestDirectories) async throws -> AppSession {
        let (session, _) = try await HeadlessHarness.firstLaunch(app.definition, directories: directories)
        let shell = try #require(session.shell)
        let onboarding = try #require(shell.modal as? OnboardingScreen, "\(app.id): the welcome screen")
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in handle { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        for character in password { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        try #require(shell.modal == nil, "\(app.id) made @\(handle):\n\(HeadlessHarness.frame(of: session))")
        #expect(SessionStore(dataDirectory: directories.data).load()?.handle == handle)
        return session
    }

    /// On the welcome screen of `session`: the sign-in row is drawn right after the provider's
    /// choices and reached with j and k; choosing it, typing the handle and then the password
    /// signs in as @pia_photo, named in the title bar.
    static func signBackIn(_ app: ShippedApp, _ session: AppSession) async throws {
        let shell = try #require(session.shell)
        let onboarding = try #require(
            shell.modal as? OnboardingScreen, "\(app.id):\n\(HeadlessHarness.frame(of: session))")
        let offered = onboarding.offered
        let listsAccounts = offered.contains { if case .continueAs = $0 { true } else { false } }
        let signInRow =
            (listsAccounts ? "Continue as another account" : "Sign in to an existing account")
            + " (type its handle or name)"

        // The rows: the provider's choices in its order, then the sign-in row, the first selected
        let welcome = HeadlessHarness.frame(of: session)
        let rows = choiceRows(welcome)
        #expect(
            rows.count == offered.count + 1, "\(app.id): \(offered.count) choices and a sign-in:\n\(welcome)")
        if rows.count == offered.count + 1 {
            #expect(rows.last?.text == signInRow, "\(app.id): the last row signs in:\n\(welcome)")
            let create = try #require(offered.firstIndex(of: .createAccount))
            #expect(rows[create].text == "Create a new account", "\(app.id):\n\(welcome)")
            #expect(rows.map(\.selected) == [true] + Array(repeating: false, count: offered.count))
        }

        // j moves down to it (and no further), k leaves it, j comes back
        for _ in 0..<offered.count + 1 { _ = shell.handle(.character("j")) }
        let reached = choiceRows(HeadlessHarness.frame(of: session))
        #expect(reached.filter(\.selected).count == 1)
        try #require(
            reached.last?.selected == true && reached.last?.text == signInRow,
            "\(app.id): j reaches a way to sign in to @\(handle):\n\(HeadlessHarness.frame(of: session))")
        _ = shell.handle(.character("k"))
        let above = choiceRows(HeadlessHarness.frame(of: session))
        #expect(above.filter(\.selected).count == 1)
        #expect(above.firstIndex(where: \.selected) == offered.count - 1, "k selects the row above it")
        _ = shell.handle(.character("j"))
        #expect(choiceRows(HeadlessHarness.frame(of: session)).last?.selected == true)

        // Choosing it asks for the account (listing none before anything is typed where the
        // socket lists none); the handle finds it
        _ = shell.handle(.enter)
        let asking = HeadlessHarness.frame(of: session)
        #expect(asking.contains("Find: a handle or a name"), "\(app.id):\n\(asking)")
        #expect(onboarding.findMatches.isEmpty == !listsAccounts, "\(app.id):\n\(asking)")
        for character in handle { _ = shell.handle(.character(character)) }
        let found = HeadlessHarness.frame(of: session)
        #expect(found.contains("▌ @\(handle)  \(handle)\n"), "\(app.id): the account is found:\n\(found)")
        _ = shell.handle(.enter)
        await session.settle()
        let asked = HeadlessHarness.frame(of: session)
        #expect(asked.contains("Sign in as @\(handle)\n  Password:"), "\(app.id):\n\(asked)")

        // The password signs in as it
        for character in password { _ = shell.handle(.character(character)) }
        _ = shell.handle(.enter)
        await session.settle()
        let home = HeadlessHarness.frame(of: session)
        #expect(shell.modal == nil, "\(app.id) left the welcome screen:\n\(home)")
        #expect(shell.context.viewer?.handle == handle)
        let titleBar = lines(home).first ?? ""
        #expect(
            titleBar.hasPrefix(app.titlePrefix) && titleBar.hasSuffix("@" + handle), "\(app.id):\n\(home)")
    }

    /// One row of the welcome screen's list: its words, and whether it is selected.
    struct ChoiceRow: Equatable {
        let text: String
        let selected: Bool
    }

    /// The welcome screen's list of choices in `frame`: the first run of lines drawn as its rows
    /// are (two spaces, then the selection marker or a blank, then words), trimmed.
    static func choiceRows(_ frame: String) -> [ChoiceRow] {
        let rows = lines(frame).all.map { line -> ChoiceRow? in
            guard line.hasPrefix("  "), let words = line.dropFirst(4).first, words != " " else { return nil }
            let marker = line.dropFirst(2).prefix(2)
            guard marker == "▌ " || marker == "  " else { return nil }
            return ChoiceRow(text: String(line.dropFirst(4)).trimmingSpaces, selected: marker == "▌ ")
        }
        return Array(rows.drop { $0 == nil }.prefix { $0 != nil }.compactMap { $0 })
    }
}

extension String {
    /// The text without trailing spaces.
    fileprivate var trimmingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
