import Basics
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
        /// Lowercase UUID-shaped tokens drawn from `seed` and the journal's sequence: they read
        /// like random ones (their first 8 characters tell mutations apart in logs), but the
        /// same seed and sequence always give the same token, and no two sequences share one.
        /// For headless runs; the caveat of `sequential` holds: give each app its own seed.
        case seeded(UInt64)

        func token(sequence: Int64) -> MutationToken {
            switch self {
            case .random: .random()
            case .sequential(let prefix): MutationToken("\(prefix)\(sequence)")
            case .seeded(let seed): Self.seededToken(seed: seed, sequence: sequence)
            }
        }

        /// Two SplitMix64 draws from a state that is a bijection of the sequence (for one seed),
        /// so the first draw, and with it the token, differs for every sequence.
        private static func seededToken(seed: UInt64, sequence: Int64) -> MutationToken {
            var random = SplitMix64(seed: seed ^ (UInt64(bitPattern: sequence) &* 0x9E37_79B9_7F4A_7C15))
            let hex = [random.next(), random.next()].map { value in
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
            var token = ""
            for (index, digit) in hex.enumerated() {
                if [8, 12, 16, 20].contains(index) { token.append("-") }
                token.append(digit)
            }
            return MutationToken(token)
        }
    }
}
