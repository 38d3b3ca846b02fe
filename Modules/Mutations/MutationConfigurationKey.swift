import Composition

/// The mutation manager's configuration for `mutations.replay` (retry policies, limits, jitter
/// seed, token source). Headless runs take both the jitter seed and the tokens (`seeded`) from
/// the run's seed, so the same script gives the same frames. Default:
/// `MutationManager.Configuration()` (random tokens and jitter).
public enum MutationConfigurationKey: LaunchValueKey {
    /// The default configuration.
    public static var defaultValue: MutationManager.Configuration { MutationManager.Configuration() }
}
