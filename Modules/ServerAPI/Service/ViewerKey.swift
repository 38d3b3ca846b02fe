import Composition

/// The signed-in account's credentials, when the launcher knows them (a saved session, a test).
/// Default: nil, nobody: the launcher signs in.
public enum ViewerKey: LaunchValueKey {
    /// nil: nobody signed in yet.
    public static let defaultValue: Credentials? = nil
}
