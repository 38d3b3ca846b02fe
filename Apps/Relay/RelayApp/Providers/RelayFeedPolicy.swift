import MediaModel
import Sockets

/// Relay has no home feed; the posts of a profile or a thread opened from a shared post show
/// every kind, replies under their parent.
struct RelayFeedPolicy: FeedPolicy {
    let shownKinds: Set<MediaKind> = [.text, .photo, .carousel, .video]
    let showsUnknownKinds = true
    let pageSize = 20
    let showsReplyParent = true
}
