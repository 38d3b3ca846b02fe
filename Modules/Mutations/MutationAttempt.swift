import Foundation
import ServerAPI
import Wire

/// One attempt to send a mutation, as the attempt log keeps it.
public struct MutationAttempt: Hashable, Sendable {
    /// How an attempt ended.
    public enum Outcome: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The server applied it (or had applied it: a replayed response).
        case confirmed
        /// A retryable failure (offline, timeout, 408, 429, 5xx); another attempt follows after
        /// `delay`.
        case retry
        /// A 401: the session was renewed and another attempt follows after `delay`.
        case reauthenticate
        /// A permanent failure (another 4xx, an unreadable response, a failed dependency).
        case failed
        /// The attempt was cancelled (the app stopped); the mutation stays pending.
        case cancelled

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The mutation's token.
    public var token: MutationToken
    /// The mutation's kind.
    public var kind: MutationKind
    /// The attempt's number for this mutation, from 1.
    public var attempt: Int
    /// When it started.
    public var startedAt: Date
    /// When it ended.
    public var endedAt: Date
    /// How it ended.
    public var outcome: Outcome
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// The failure's class, when it failed.
    public var errorClass: ErrorClass?
    /// The delay chosen before the next attempt (retry, reauthenticate).
    public var delay: Duration?
    /// What happened, in words (the error's message; "replayed" for an answer from the
    /// server's record of an earlier attempt).
    public var detail: String

    /// Makes an attempt record.
    public init(
        token: MutationToken, kind: MutationKind, attempt: Int, startedAt: Date, endedAt: Date,
        outcome: Outcome, status: Int? = nil, errorClass: ErrorClass? = nil, delay: Duration? = nil,
        detail: String = ""
    ) {
        self.token = token
        self.kind = kind
        self.attempt = attempt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.status = status
        self.errorClass = errorClass
        self.delay = delay
        self.detail = detail
    }
}
