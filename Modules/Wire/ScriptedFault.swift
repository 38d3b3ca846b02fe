/// An outcome forced on one request by `FaultControl.injectFaults`, in place of the profile's
/// random draw (the profile's latency still applies, unless offline).
public enum ScriptedFault: Hashable, Sendable, CustomStringConvertible {
    /// Deliver the request normally.
    case deliver
    /// Answer with this 5xx status without reaching the server.
    case serverError(status: Int)
    /// Answer 429 with `Retry-After` without reaching the server.
    case rateLimited(retryAfter: Duration)
    /// Deliver the request (the server applies it), then lose the response: the caller sees a
    /// timeout.
    case dropResponseAfterApply
    /// Fail with `offline` without reaching the server.
    case offline

    /// The outcome's name (`"serverError(503)"`).
    public var description: String {
        switch self {
        case .deliver: "deliver"
        case .serverError(let status): "serverError(\(status))"
        case .rateLimited(let delay): "rateLimited(retryAfter: \(delay))"
        case .dropResponseAfterApply: "dropResponseAfterApply"
        case .offline: "offline"
        }
    }
}
