/// The demo data's accounts share one documented password, so demo data stays one command away.
///
/// A backend in demo mode (the embedded one always, `backend-server --demo`) lets the seed
/// accounts sign in with it; a backend not in demo mode refuses them (403 `demo_disabled`).
/// Accounts made with `POST /v1/accounts` have their own password.
///
/// ```swift
/// let session = try await client.signIn(handle: "ada", password: DemoAccounts.password)
/// ```
public enum DemoAccounts {
    /// The password every seed account has: "loom-demo".
    public static let password = "loom-demo"
}
