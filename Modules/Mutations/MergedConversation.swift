import MediaModel
import ServerAPI

/// A conversation as a screen shows it: the server's messages in the server's order, then the
/// messages sent from this device that no page holds yet, each row with where it comes from.
///
/// Rows keep their identity from the moment a message is typed: a message of the viewer's is
/// the row `local:<client token>` while pending, once confirmed, and once a page holds it (the
/// server tells its sender the token), so a list that diffs by ``MergedMessage/id`` updates the
/// row in place instead of removing and inserting it.
public struct MergedConversation: Hashable, Sendable {
    /// The conversation's id.
    public var id: ConversationID
    /// The conversation as the page said (members, unread count), nil before a page was read.
    public var conversation: Conversation?
    /// The messages, oldest first: the server's, the ones this device sent that the server
    /// confirmed (in the server's order), then the pending and failed ones in the order typed.
    public var messages: [MergedMessage]
    /// The page's cursor for older messages.
    public var olderCursor: String?
    /// The page's cursor for newer messages.
    public var newerCursor: String?

    /// Makes a merged conversation.
    public init(
        id: ConversationID, conversation: Conversation?, messages: [MergedMessage], olderCursor: String?,
        newerCursor: String?
    ) {
        self.id = id
        self.conversation = conversation
        self.messages = messages
        self.olderCursor = olderCursor
        self.newerCursor = newerCursor
    }
}

/// One row of a merged conversation: a message and where it comes from.
public struct MergedMessage: Hashable, Sendable, Identifiable {
    /// The message; one still pending has the id `local:<token>`.
    public var message: Message
    /// Whether it is server data, pending or failed.
    public var status: OptimisticStatus

    /// Makes a row.
    public init(message: Message, status: OptimisticStatus) {
        self.message = message
        self.status = status
    }

    /// The row's identity, the same from typing to the server's page: `local:<client token>`
    /// for a message that carries one (the viewer's), else the message's id.
    public var id: String {
        message.clientToken.map { MutationToken.localPrefix + $0 } ?? message.id.rawValue
    }

    /// What the row says under the message: `"sending…"` while pending, the reason once failed,
    /// nil for a message the server holds.
    public var statusText: String? {
        switch status {
        case .server: nil
        case .pending: MutationKind.message.progress
        case .failed(_, let reason): reason
        }
    }
}
