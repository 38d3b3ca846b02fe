import Basics
import Composition
import Sockets
import TerminalUI

/// How posts look in this app, read once from its sockets: the rows of a post (`postLayout`),
/// replies as comments or threaded posts (`replyModel`), reply context in the feed
/// (`feedPolicy`), and the styles (`branding`, `theme`). A value, so layouts can carry it to
/// background tasks.
package struct PostPresentation: Sendable, Hashable {
    /// The styles.
    package let style: AppStyle
    /// The rows of a post, top to bottom.
    package let rows: [PostRow]
    /// The most lines a photo takes.
    package let mediaLines: Int
    /// Whether the text starts with the author's handle (a caption).
    package let captionLeadsWithAuthor: Bool
    /// The most lines of text a post shows in a list (its title not counted); nil shows it whole.
    package let excerptLines: Int?
    /// Comments or threaded posts.
    package let replyStyle: ReplyStyle
    /// What one reply is called.
    package let replyNoun: String
    /// Whether a reply in a feed shows its parent above it.
    package let showsReplyParent: Bool
    /// Where stored photos' art comes from (drawn from their real pixels); nil draws each photo
    /// from the small rendition its attachment carries.
    package var photoArt: PhotoArtStore?
    /// The title of the app's tab listing changes (Sync), named where a change was not sent; nil
    /// when the app has no such tab.
    package let syncTitle: String?

    /// What everything above but `photoArt` was made from: this build, the provider of each
    /// socket and the two modes, as a fingerprint that is the same in every launch of this
    /// build made the same way (so a value derived from the presentation, like
    /// `PostLayoutKey`, can be kept across launches under it). Nil when a socket was
    /// overridden (a test's contract, which no provider id names) or the executable has no
    /// build id. The properties above are constants for that reason: made here and nowhere
    /// else.
    package let origin: UInt64?

    /// The presentation an app's sockets describe.
    package init(registry: SocketRegistry, colorMode: ColorMode, imageMode: ImageMode) {
        origin = Self.origin(of: registry, colorMode: colorMode, imageMode: imageMode)
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

    /// The fingerprint of ``origin``. Every socket's provider counts, not only the ones read
    /// above: a provider id names fixed code in a build (the presentation's providers read
    /// nothing from their launch context).
    static func origin(of registry: SocketRegistry, colorMode: ColorMode, imageMode: ImageMode) -> UInt64? {
        guard let build = BuildIdentity.current, !registry.hasOverrides else {
            return nil
        }
        var hash = FNV1a()
        hash.combine(build)
        hash.endPart()
        for (socket, provider) in registry.providers.sorted(by: { $0.key < $1.key }) {
            hash.combine(socket.utf8)
            hash.endPart()
            hash.combine(provider.utf8)
            hash.endPart()
        }
        hash.combine(colorMode.description.utf8)
        hash.endPart()
        hash.combine(imageMode.description.utf8)
        return hash.value
    }
}
