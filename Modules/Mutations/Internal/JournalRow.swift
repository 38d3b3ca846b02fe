import Foundation
import MediaModel
import ServerAPI

/// One journal row as the manager holds it in memory.
struct JournalRow: Sendable {
    var sequence: Int64
    var token: MutationToken
    var lane: MutationLane
    var mutation: Mutation
    /// Who the new post or reply is shown as while pending (the viewer when it was made); boxed,
    /// since only posts and replies have one.
    private var authorBox: AuthorBox?
    var state: MutationRecord.State
    /// Attempts started so far.
    var attempts: Int
    /// Consecutive retryable failures since the last success or network reset: the backoff's
    /// exponent.
    var streak: Int
    /// When the next attempt may start, in milliseconds since 1970; nil means now.
    var nextAttemptAt: Int64?
    var lastError: String?
    var dependsOn: MutationToken?
    /// When it was made, in milliseconds since 1970.
    var createdAt: Int64
    /// What the confirmation left (confirmed rows only).
    var confirmation: MutationConfirmation?
    /// The handle of the account signed in when it was made: it is sent only while that account
    /// is signed in. Nil for a manager that names no account (and for rows of an older journal
    /// whose account was never recorded).
    var account: String?

    init(
        sequence: Int64, token: MutationToken, lane: MutationLane, mutation: Mutation, author: User?,
        state: MutationRecord.State, attempts: Int, streak: Int, nextAttemptAt: Int64?, lastError: String?,
        dependsOn: MutationToken?, createdAt: Int64, confirmation: MutationConfirmation?, account: String?
    ) {
        self.sequence = sequence
        self.token = token
        self.lane = lane
        self.mutation = mutation
        self.authorBox = author.map(AuthorBox.init)
        self.state = state
        self.attempts = attempts
        self.streak = streak
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.dependsOn = dependsOn
        self.createdAt = createdAt
        self.confirmation = confirmation
        self.account = account
    }

    /// Who the new post or reply is shown as while pending.
    var author: User? { authorBox?.user }

    var record: MutationRecord {
        MutationRecord(
            token: token, sequence: sequence, lane: lane, mutation: mutation, state: state,
            attempts: attempts,
            nextAttemptAt: nextAttemptAt.map { Date(wireMilliseconds: $0) }, lastError: lastError,
            dependsOn: dependsOn, createdAt: Date(wireMilliseconds: createdAt), account: account)
    }
}

extension JournalRow {
    /// Whether the row waits in its lane (pending or in flight).
    var isQueued: Bool { state == .pending || state == .inFlight }
}
