import MediaModel
import Sockets

/// Strand's home feed: every kind of post, replies shown under their parent.
struct StrandFeedPolicy: FeedPolicy {
    let shownKinds: Set<MediaKind> = [.text, .photo, .carousel, .video]
    let showsUnknownKinds = true
    let pageSize = 20
    let showsReplyParent = true
}
