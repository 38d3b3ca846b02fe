/// A transport whose fault profile can be switched while the app runs (the `--network` flag and
/// a script's network switch).
public protocol FaultControl: AnyObject, Sendable {
    /// The profile in force.
    var faultProfile: FaultProfile { get }

    /// Switches the profile; requests that start afterwards use it.
    func setFaultProfile(_ profile: FaultProfile)

    /// Queues outcomes for the next requests, taken before the profile's random draws: a test
    /// scripts "500, then success" this way.
    func injectFaults(_ faults: [ScriptedFault])
}
