import Composition

/// Whether the embedded backend runs. The launcher sets it to false when the app talks to a
/// remote server (`--server URL`); `backend.embedded` then stays inert and offers no transport.
/// Default: true.
public enum EmbeddedBackendEnabledKey: LaunchValueKey {
    /// true.
    public static let defaultValue = true
}
