import Composition

/// An account that already exists on the backend, as onboarding offers it.
public struct OnboardingAccount: Sendable, Hashable {
    /// The account's handle.
    public var handle: String
    /// The account's display name.
    public var displayName: String
    /// How many accounts it follows.
    public var followingCount: Int

    /// Makes an account summary.
    public init(handle: String, displayName: String, followingCount: Int) {
        self.handle = handle
        self.displayName = displayName
        self.followingCount = followingCount
    }
}

/// One way to get started, as the welcome screen lists it.
public enum OnboardingChoice: Sendable, Hashable {
    /// Pick a new handle and create an account.
    case createAccount
    /// Continue as an existing account, importing its name and avatar, and its follows when
    /// `importsFollows` is true.
    case continueAs(OnboardingAccount, importsFollows: Bool)
}

/// The first-launch flow: what a person can choose on the welcome screen.
///
/// A provider decides how the welcome screen reads (its title, which accounts it lists and in
/// what order), never whether a person can get back in: whatever ``choices(existingAccounts:)``
/// returns, the screen ends the list with signing in to any existing account (its handle or
/// name, then its password), so an account made in the app can be signed in to again after
/// `--sign-out` or when its session ended. A provider does not add that row itself.
public protocol Onboarding: Sendable {
    /// The welcome screen's title.
    var title: String { get }
    /// The choices offered, given the accounts that already exist on the backend (the most
    /// followed few); the screen lists them in this order, then its own sign-in row.
    func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice]
}

/// The flow an app gets when its manifest leaves `onboarding` unbound: create an account (or,
/// as on every welcome screen, sign in to an existing one).
public struct StandardOnboarding: Onboarding {
    /// Asks for a handle, or for signing in.
    public let title = "Welcome! Pick a handle to create your account, or sign in to yours."

    /// Makes the standard flow.
    public init() {}

    /// Only creating an account, whatever accounts exist (the screen adds signing in).
    public func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice] {
        [.createAccount]
    }
}

@usableFromInline let onboardingSocket = Socket<any Onboarding>.optional(
    "onboarding", summary: "the first-launch flow", default: { StandardOnboarding() })

extension Socket where Contract == any Onboarding {
    /// The first-launch flow. Optional: defaults to `StandardOnboarding` (create an account);
    /// signing in to an existing account is offered whatever the provider.
    @inlinable public static var onboarding: Socket<any Onboarding> { onboardingSocket }
}
