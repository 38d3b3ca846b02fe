import Composition
import Wire

/// The clock the embedded backend stamps posts with and its fault layer sleeps on. Headless
/// runs set a `ManualClock` (the same one the network stack reads). Default: `SystemClock()`.
public enum BackendClockKey: LaunchValueKey {
    /// The system clock.
    public static var defaultValue: any WallClock { SystemClock() }
}
