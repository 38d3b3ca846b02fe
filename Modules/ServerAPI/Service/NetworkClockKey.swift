import Composition
import Wire

/// The clock the network stack reads (Retry-After dates, fetch times, retry backoff). Headless
/// runs set the same `ManualClock` as the backend's. Default: `SystemClock()`.
public enum NetworkClockKey: LaunchValueKey {
    /// The system clock.
    public static var defaultValue: any WallClock { SystemClock() }
}
