import Sockets

/// Prism's direct messages: a tab of its own beside the feed, its badge counting the
/// conversations with something new (as a photo app's paper plane does).
struct PrismDirect: Direct {
    let inboxTitle = "Direct"
    let glyph = "✉"
    let ownMark = "you"
    let badge = DirectBadge.unreadConversations
}
