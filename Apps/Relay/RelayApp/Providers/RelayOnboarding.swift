import Sockets

/// Relay's first launch: continue as an account that already exists on the shared backend
/// (bringing its name, avatar and follows along), or create a new one.
struct RelayOnboarding: Onboarding {
    let title = "Welcome to Relay. Bring your account, or start fresh."

    func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice] {
        existingAccounts.map { .continueAs($0, importsFollows: true) } + [.createAccount]
    }
}
