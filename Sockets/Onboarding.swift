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
public protocol Onboarding: Sendable {
    /// The welcome screen's title.
    var title: String { get }
    /// The choices offered, given the accounts that already exist on the backend.
    func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice]
}

/// The flow an app gets when its manifest leaves `onboarding` unbound: create an account.
public struct StandardOnboarding: Onboarding {
    /// Asks for a handle.
    public let title = "Welcome! Pick a handle to create your account."

    /// Makes the standard flow.
    public init() {}

    /// Only creating an account, whatever accounts exist.
    public func choices(existingAccounts: [OnboardingAccount]) -> [OnboardingChoice] {
        [.createAccount]
    }
}

@usableFromInline let onboardingSocket = Socket<any Onboarding>.optional(
    "onboarding", summary: "the first-launch flow", default: { StandardOnboarding() })

extension Socket where Contract == any Onboarding {
    /// The first-launch flow. Optional: defaults to `StandardOnboarding` (create an account).
    @inlinable public static var onboarding: Socket<any Onboarding> { onboardingSocket }
}
