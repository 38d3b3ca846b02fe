import Composition
import Sockets
import TerminalUI

/// How posts look in this app, read once from its sockets: the rows of a post (`postLayout`),
/// replies as comments or threaded posts (`replyModel`), reply context in the feed
/// (`feedPolicy`), and the styles (`branding`, `theme`). A value, so layouts can carry it to
/// background tasks.
package struct PostPresentation: Sendable, Hashable {
    /// The styles.
    package var style: AppStyle
    /// The rows of a post, top to bottom.
    package var rows: [PostRow]
    /// The most lines a photo takes.
    package var mediaLines: Int
    /// Whether the text starts with the author's handle (a caption).
    package var captionLeadsWithAuthor: Bool
    /// The most lines of text a post shows in a list (its title not counted); nil shows it whole.
    package var excerptLines: Int?
    /// Comments or threaded posts.
    package var replyStyle: ReplyStyle
    /// What one reply is called.
    package var replyNoun: String
    /// Whether a reply in a feed shows its parent above it.
    package var showsReplyParent: Bool
    /// Where stored photos' art comes from (drawn from their real pixels); nil draws each photo
    /// from the small rendition its attachment carries.
    package var photoArt: PhotoArtStore?
    /// The title of the app's tab listing changes (Sync), named where a change was not sent; nil
    /// when the app has no such tab.
    package var syncTitle: String?

    /// The presentation an app's sockets describe.
    package init(registry: SocketRegistry, colorMode: ColorMode, imageMode: ImageMode) {
        let layout = registry[.postLayout]
        let replies = registry[.replyModel]
        style = AppStyle(
            branding: registry[.branding], theme: registry[.theme], colorMode: colorMode, imageMode: imageMode
        )
        rows = layout.rows
        mediaLines = max(2, layout.mediaLines)
        captionLeadsWithAuthor = layout.captionLeadsWithAuthor
        excerptLines = layout.excerptLines.map { max(1, $0) }
        replyStyle = replies.style
        replyNoun = replies.noun
        showsReplyParent = registry.with(.feedPolicy) { $0.showsReplyParent }
        syncTitle = registry[.tabs].tabs.first { $0.destination == .mutations }?.title
    }
}
