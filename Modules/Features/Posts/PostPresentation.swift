import Composition
import Sockets
import TerminalUI

/// How posts look in this app, read once from its sockets: the rows of a post (`postLayout`),
/// replies as comments or threaded posts (`replyModel`), reply context in the feed
/// (`feedPolicy`), and the styles (`branding`, `theme`). A value, so layouts can carry it to
/// background tasks.
public struct PostPresentation: Sendable, Hashable {
    /// The styles.
    public var style: AppStyle
    /// The rows of a post, top to bottom.
    public var rows: [PostRow]
    /// The most lines a photo takes.
    public var mediaLines: Int
    /// Whether the text starts with the author's handle (a caption).
    public var captionLeadsWithAuthor: Bool
    /// Comments or threaded posts.
    public var replyStyle: ReplyStyle
    /// What one reply is called.
    public var replyNoun: String
    /// Whether a reply in a feed shows its parent above it.
    public var showsReplyParent: Bool

    /// The presentation an app's sockets describe.
    public init(registry: SocketRegistry, colorMode: ColorMode) {
        let layout = registry[.postLayout]
        let replies = registry[.replyModel]
        style = AppStyle(branding: registry[.branding], theme: registry[.theme], colorMode: colorMode)
        rows = layout.rows
        mediaLines = max(2, layout.mediaLines)
        captionLeadsWithAuthor = layout.captionLeadsWithAuthor
        replyStyle = replies.style
        replyNoun = replies.noun
        showsReplyParent = registry.with(.feedPolicy) { $0.showsReplyParent }
    }
}
