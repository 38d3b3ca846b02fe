/// Where an entry of a merged view comes from: server data, or a mutation of this device that
/// is still pending or failed.
public enum OptimisticStatus: Hashable, Sendable {
    /// Server data (including a post the server confirmed that no list has shown yet).
    case server
    /// A mutation waiting to be confirmed: show it at once, marked as sending.
    case pending(MutationToken)
    /// A mutation that failed for good: show it as failed, offering retry and discard.
    case failed(MutationToken, message: String)

    /// The mutation behind the entry, when it is pending or failed.
    public var token: MutationToken? {
        switch self {
        case .server: nil
        case .pending(let token), .failed(let token, _): token
        }
    }
}
