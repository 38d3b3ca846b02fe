import Composition

/// The app's hook that renews the session after a 401, called by `mutations.replay` before it
/// retries the mutation (for example: sign in again and call `NetworkClientService.signIn`).
/// Default: nil, which only re-reads the session token: every attempt asks `network.client` for
/// its current client.
public enum MutationReauthenticationKey: LaunchValueKey {
    /// No hook.
    public static let defaultValue: (@Sendable () async -> Void)? = nil
}
