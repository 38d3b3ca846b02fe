import AppRuntime
import AppTesting
import Backend
import Features
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Testing

/// Making an account as a person does it: the handle field keeps to the rule the server checks
/// (2 to 24 characters of a-z, 0-9 and _), as they type, and says why when it refuses a key.
@Suite @MainActor struct OnboardingScenarios {
    @Test(arguments: ShippedApp.all)
    func handleField_keepsToTheServersRule_asThePersonTypes(app: ShippedApp) async throws {
        let (session, _) = try await HeadlessHarness.session(
            app.definition, directories: try TestDirectories.make())
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let onboarding = try await HeadlessHarness.presentOnboarding(in: session)
        let create = try #require(onboarding.offered.firstIndex(of: .createAccount))
        for _ in 0..<create { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)

        for character in "Ada Lovelace!" { _ = shell.handle(.character(character)) }
        let typed = HeadlessHarness.frame(of: session)
        #expect(typed.contains("Handle: @adalovelace"), "capitals lowered, space and ! refused:\n\(typed)")
        #expect(typed.contains("a handle uses a-z, 0-9 and _"), "and it says why:\n\(typed)")

        for character in String(repeating: "x", count: 30) { _ = shell.handle(.character(character)) }
        let long = HeadlessHarness.frame(of: session)
        #expect(
            long.contains("Handle: @adalovelace" + String(repeating: "x", count: 24 - 11) + "\n")
                || long.contains("Handle: @adalovelace" + String(repeating: "x", count: 24 - 11) + " "),
            "24 characters at most:\n\(long)")
        #expect(long.contains("at most 24 characters"), "and it says so:\n\(long)")
    }

    /// Every welcome screen lets a person find any account by typing (not only the few most
    /// followed its `onboarding` socket may list): @ada, or one just made. The row says "another
    /// account" beside listed accounts and "an existing account" where none are listed.
    @Test(arguments: ShippedApp.all)
    func anyAccount_canBeFoundByTyping_inEveryApp(app: ShippedApp) async throws {
        let directories = try TestDirectories.make()
        let backend = try directories.openBackend()
        try await BackendFixtures.createAccount(
            on: backend, handle: "zoe_made_today", displayName: "Zoë Today")
        backend.close()
        let (session, _) = try await HeadlessHarness.session(app.definition, directories: directories)
        defer { Task { await session.stop() } }
        let shell = try #require(session.shell)
        let signedIn = SignedIn()
        let onboarding = try await HeadlessHarness.presentOnboarding(in: session) {
            signedIn.handle = $0.user.handle
        }
        let frame = HeadlessHarness.frame(of: session)
        let listed = onboarding.offered.compactMap { choice -> String? in
            if case .continueAs(let account, _) = choice { return account.handle }
            return nil
        }
        #expect(onboarding.findsOtherAccounts)
        #expect(
            !listed.contains("ada") && !listed.contains("zoe_made_today"), "neither is among the few listed")
        let row =
            (listed.isEmpty ? "Sign in to an existing account" : "Continue as another account")
            + " (type its handle or name)"
        #expect(frame.contains(row + "\n"), "\(app.id):\n\(frame)")
        for _ in 0..<onboarding.offered.count { _ = shell.handle(.character("j")) }
        _ = shell.handle(.enter)
        for character in "zoe" { _ = shell.handle(.character(character)) }
        #expect(onboarding.findMatches.first?.handle == "zoe_made_today")
        #expect(HeadlessHarness.frame(of: session).contains("@zoe_made_today  Zoë Today"))

        for _ in 0..<3 { _ = shell.handle(.backspace) }
        for character in "ad" { _ = shell.handle(.character(character)) }
        let matches = onboarding.findMatches.map(\.handle)
        #expect(matches.first == "ada", "handles that start with it come first: \(matches)")
        #expect(matches.count <= 6)
        _ = shell.handle(.enter)
        await session.settle()
        #expect(signedIn.handle == "ada", "\(app.id) continued as @ada")
    }
}

/// Who onboarding signed in as.
@MainActor private final class SignedIn {
    var handle: String?
}
