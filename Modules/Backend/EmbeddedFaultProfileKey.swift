import Composition
import Wire

/// The fault profile the embedded transport starts with (`--network perfect|slow|flaky|lossy|offline`;
/// switch later through `FaultControl`). Default: `.perfect`.
public enum EmbeddedFaultProfileKey: LaunchValueKey {
    /// `.perfect`.
    public static let defaultValue = FaultProfile.perfect
}
