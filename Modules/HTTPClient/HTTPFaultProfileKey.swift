import Composition
import Wire

/// The simulated network conditions `network.http` starts with in front of the real server
/// (`--network perfect|slow|flaky|lossy|offline` works over HTTP too; switch later through
/// `FaultControl`). Default: `.perfect`, which adds nothing.
public enum HTTPFaultProfileKey: LaunchValueKey {
    /// `.perfect`.
    public static let defaultValue = FaultProfile.perfect
}
