import Composition

/// The seed number of the embedded backend's demo data (used when its database is new), and of
/// its fault draws. Default: `BackendSeed.defaultSeed` (1).
public enum BackendSeedKey: LaunchValueKey {
    /// 1.
    public static let defaultValue: UInt64 = BackendSeed.defaultSeed
}
