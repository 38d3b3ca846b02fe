import Composition
import Wire

/// The clock `network.http` sleeps its simulated latency and lost-response timeouts on
/// (`HTTPFaultProfileKey`). Apart from `NetworkClockKey` because the two differ in a headless
/// run: the app's time moves only when the script says `advance`, while a simulated delay must
/// pass within a `wait`, as it does over the embedded backend, or the script never gets to
/// move time at all. Default: `SystemClock()`.
public enum HTTPFaultClockKey: LaunchValueKey {
    /// The system clock.
    public static var defaultValue: any WallClock { SystemClock() }
}
