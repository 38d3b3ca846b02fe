import MediaModel
import ServerAPI

/// Why the mutation manager refused a call: the message says what went wrong, where, and what
/// to do, quoting the offending value.
public struct MutationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable {
        /// The mutation's journal payload is over `MutationManager.Configuration.payloadLimit`.
        case payloadTooLarge
        /// A local id (`local:<token>`) names no post this device made.
        case unknownLocalMedia
        /// No mutation with this token is in the journal.
        case unknownToken
        /// `retry` or `discard` was asked for a mutation that has not failed.
        case notFailed
        /// `sendNow` was asked for a mutation that is not waiting to be sent.
        case notPending
        /// The journal could not be read or written.
        case storage
        /// The `mutations.replay` service is not running.
        case notRunning
        /// The mutation was made as another account than the one signed in: it is held.
        case heldForAccount
    }

    /// What kind of problem it is.
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String
    /// The underlying problem alone, short enough for a status line (a storage error's own
    /// text, "the disk is full; free space and retry"), when there is one.
    public let cause: String?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The message.
    public var description: String { message }

    static func payloadTooLarge(_ kind: MutationKind, bytes: Int, limit: Int) -> MutationError {
        MutationError(
            .payloadTooLarge,
            "the \(kind) mutation's journal payload is \(bytes) bytes, over the limit of \(limit) bytes; "
                + "nothing was enqueued: send less (fewer or smaller attachments, shorter text)")
    }

    static func unknownLocalMedia(_ id: MediaID) -> MutationError {
        MutationError(
            .unknownLocalMedia,
            "'\(id)' is a local post id, but no post made on this device has it (it was discarded, or "
                + "belongs to another data directory); refresh and act on the post's server id")
    }

    static func unknownToken(_ token: MutationToken) -> MutationError {
        MutationError(
            .unknownToken,
            "no mutation with token '\(token)' is in the journal (it was confirmed or discarded); "
                + "list MutationManager.failed for the tokens that can be retried or discarded")
    }

    static func notFailed(_ token: MutationToken, _ state: MutationRecord.State, action: String)
        -> MutationError
    {
        MutationError(
            .notFailed,
            "cannot \(action) mutation '\(token)': it is \(state), and only failed mutations can be "
                + "\(action == "retry" ? "retried" : "discarded"); pending ones are sent on their own")
    }

    static func notPending(_ token: MutationToken, _ state: MutationRecord.State) -> MutationError {
        MutationError(
            .notPending,
            "cannot send mutation '\(token)' now: it is \(state), not waiting to be sent; retry a failed one "
                + "instead")
    }

    static func heldForAccount(_ token: MutationToken, _ account: String?) -> MutationError {
        let who = account.map { "@" + $0 } ?? "an account this journal did not record"
        return MutationError(
            .heldForAccount,
            "mutation '\(token)' was made as \(who), not the account signed in: it is held, and only "
                + "\(account == nil ? "that account" : who) can send, retry or discard it once signed in again"
        )
    }

    static func storage(_ action: String, _ error: any Error) -> MutationError {
        MutationError(
            .storage,
            "the mutation journal could not \(action): \(error); check that the app's data directory is "
                + "writable and the 'storage.database' service is running", cause: "\(error)")
    }
}
