import Sockets

/// Relay's direct messages: the whole app. Its inbox badge counts every unread message.
struct RelayDirect: Direct {
    let inboxTitle = "Inbox"
    let glyph = "✉"
    let ownMark = "me"
    let badge = DirectBadge.unreadMessages
}
