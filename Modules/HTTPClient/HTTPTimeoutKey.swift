import Composition

/// The longest an HTTP request may take before it fails with `timeout` (a long poll gets its
/// `wait` on top). Read by `network.http`. Default: 15 seconds.
public enum HTTPTimeoutKey: LaunchValueKey {
    /// 15 seconds.
    public static let defaultValue: Duration = .seconds(15)
}
