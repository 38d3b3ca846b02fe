import Composition

/// The mutation manager's configuration for `mutations.replay` (retry policies, limits, jitter
/// seed, token source). Headless runs fix `jitterSeed` (and may use sequential tokens) so the
/// same script gives the same frames. Default: `MutationManager.Configuration()`.
public enum MutationConfigurationKey: LaunchValueKey {
    /// The default configuration.
    public static var defaultValue: MutationManager.Configuration { MutationManager.Configuration() }
}
