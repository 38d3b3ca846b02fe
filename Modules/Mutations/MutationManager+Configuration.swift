import Foundation
import MediaModel
import ServerAPI
import Storage
import Synchronization
import Wire

extension MutationManager {
    /// How a manager retries, bounds its tables and makes tokens.
    public struct Configuration: Sendable {
        /// The backoff of kinds without their own policy. Default: 1 s doubling to 60 s.
        public var defaultRetryPolicy: RetryPolicy = .standard
        /// Backoff per kind, overriding `defaultRetryPolicy`.
        public var retryPolicies: [MutationKind: RetryPolicy] = [:]
        /// The largest journal payload one mutation may have, in bytes (text and attachments as
        /// stored); larger ones are refused by `enqueue`. Default: 256 KiB.
        public var payloadLimit = 256 * 1024
        /// How many attempts the attempt log keeps (the oldest are dropped). Default: 1,000.
        public var attemptLogLimit = 1_000
        /// How many confirmed posts, deletes and follows are kept while lists may not show them
        /// yet (the oldest are dropped). Default: 256.
        public var confirmedLimit = 256
        /// How many attempts may be in flight at once across all lanes. Default: 8.
        public var maxConcurrentAttempts = 8
        /// Seeds the backoff's jitter (a seed replays the same delays); nil draws a random seed.
        public var jitterSeed: UInt64?
        /// How tokens are made. Default: random.
        public var tokens: TokenSource = .random

        /// The default configuration.
        public init() {}

        /// The backoff of `kind`.
        public func retryPolicy(for kind: MutationKind) -> RetryPolicy {
            retryPolicies[kind] ?? defaultRetryPolicy
        }
    }

    /// How a manager makes its mutations' tokens.
    public enum TokenSource: Hashable, Sendable {
        /// Random UUIDs: unique across devices and runs (the default).
        case random
        /// `<prefix><sequence>`: reproducible, for tests and headless runs. The journal's
        /// sequence never repeats, but the server keys tokens by user only: give each app and
        /// each data directory its own prefix, and use it only against a fresh backend.
        case sequential(prefix: String)

        func token(sequence: Int64) -> MutationToken {
            switch self {
            case .random: .random()
            case .sequential(let prefix): MutationToken("\(prefix)\(sequence)")
            }
        }
    }
}
