import AppRuntime
import AppTesting
import Features
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
        let onboarding = OnboardingScreen(context: shell.context) { _ in }
        shell.presentModal(onboarding)
        await session.settle()
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
}
