import Composition

/// The signed-in user's bearer token, when the launcher knows it (a saved session, a test).
/// Default: nil, meaning the transport source's default viewer (the embedded backend's first
/// seed user, `seed-ada`).
public enum ViewerKey: LaunchValueKey {
    /// nil: ask the transport source.
    public static let defaultValue: String? = nil
}
