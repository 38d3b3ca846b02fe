import MediaModel
import Sockets

/// Prism's home feed: photos, carousels and videos; text-only posts stay out.
struct PrismFeedPolicy: FeedPolicy {
    let shownKinds: Set<MediaKind> = [.photo, .carousel, .video]
    let showsUnknownKinds = true
    let pageSize = 12
    let showsReplyParent = false
}
