import Composition

/// Direct messages as an app shows them. An app that fills the `direct` socket has an inbox:
/// its ``Tabs`` provider places it (a tab among others, or the first tab, as Home); an app that
/// leaves the socket empty has no messages, and no screen offers them.
///
/// ```swift
/// struct ExampleDirect: Direct {
///     let inboxTitle = "Messages"
///     let glyph = "✉"
///     let ownMark = "you"
///     let badge = DirectBadge.unreadMessages
/// }
/// ```
public protocol Direct: Sendable {
    /// The inbox's title ("Direct", "Inbox").
    var inboxTitle: String { get }
    /// The glyph of messages: before the inbox's unread count, and on a shared post's line in
    /// a conversation.
    var glyph: String { get }
    /// How a conversation marks the viewer's own messages, in place of the sender's name ("you").
    var ownMark: String { get }
    /// What the unread badge on the inbox's tab counts.
    var badge: DirectBadge { get }
}

/// What the unread badge on the inbox's tab counts.
public enum DirectBadge: String, Sendable, Hashable, CaseIterable {
    /// Messages not read yet, in every conversation.
    case unreadMessages
    /// Conversations with a message not read yet.
    case unreadConversations
}

@usableFromInline let directSocket = Socket<(any Direct)?>.optional(
    "direct", summary: "direct messages: the inbox's words and its badge (empty: no messages)",
    default: { nil })

extension Socket where Contract == (any Direct)? {
    /// Direct messages. Optional, and empty unless bound: an app without a `direct` provider has
    /// no inbox, and its tabs may not name one.
    @inlinable public static var direct: Socket<(any Direct)?> { directSocket }
}
