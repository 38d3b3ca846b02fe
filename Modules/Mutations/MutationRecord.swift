import Foundation
import ServerAPI

/// One mutation in the journal, as screens list it (the Mutations screen's pending and failed
/// rows): what it is, where it stands, and how its attempts went.
public struct MutationRecord: Hashable, Sendable, Identifiable {
    /// Where a mutation stands.
    public enum State: Int, Hashable, Sendable, CustomStringConvertible {
        /// Waiting for its turn, its dependency, or its next attempt time.
        case pending = 0
        /// An attempt is under way.
        case inFlight = 1
        /// Failed for good (a 4xx, or the post it depends on failed); kept until retried or
        /// discarded. Its optimistic effect is rolled back (a failed post stays as a failed entry).
        case failed = 2
        /// The server confirmed it; kept only while lists may not show it yet.
        case confirmed = 3

        /// `pending`, `in flight`, `failed`, `confirmed`.
        public var description: String {
            switch self {
            case .pending: "pending"
            case .inFlight: "in flight"
            case .failed: "failed"
            case .confirmed: "confirmed"
            }
        }
    }

    /// The mutation's token (its id).
    public var token: MutationToken
    /// Its place in the order mutations were made (increasing, never reused).
    public var sequence: Int64
    /// The lane it is sent in.
    public var lane: MutationLane
    /// The mutation (with a pending post's server id once known).
    public var mutation: Mutation
    /// Where it stands.
    public var state: State
    /// How many attempts were made (started) so far.
    public var attempts: Int
    /// When the next attempt may start; nil means as soon as its turn comes.
    public var nextAttemptAt: Date?
    /// Why the last attempt failed, or why it failed for good.
    public var lastError: String?
    /// The mutation it waits for (the pending post it replies to or acts on).
    public var dependsOn: MutationToken?
    /// When it was made.
    public var createdAt: Date
    /// The handle of the account it was made as: it is sent only while that account is signed in
    /// (nil when the manager names no account, or for a change of an older journal that never
    /// recorded one).
    public var account: String?

    /// The token.
    public var id: MutationToken { token }
}
