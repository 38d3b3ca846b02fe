import MediaModel
import ServerAPI

/// What a pending mutation changes in the merged views until it is confirmed, as an instruction
/// applied on top of server data (never written into it).
///
/// Effects are state-based where the server data can tell (a like sets `viewerLiked`, and the
/// count moves only by the difference from what the server already says), so a refresh that
/// already holds the change neither counts it twice nor undoes it.
public enum OptimisticEffect: Hashable, Sendable {
    /// A new post at the top of the home feed (and its own thread), under a local id.
    case newPost(text: String, attachments: [MediaModel.Attachment])
    /// A new reply at the end of its parent's thread; the parent's reply count goes up by one.
    case newReply(parent: MediaID, text: String, attachments: [MediaModel.Attachment])
    /// The viewer's display name and bio as edited (nil: unchanged), on their own profile.
    case profile(displayName: String?, bio: String?)
    /// The viewer's flag on a media (liked, reposted) is the value, its count adjusted to match.
    case flag(MediaID, MediaFlag, Bool)
    /// A media is gone from every list (deleted).
    case hidden(MediaID)
    /// The viewer's following of a user is `following` (follower count adjusted to match).
    case following(UserID, Bool)
    /// A new message at the bottom of its conversation, under a local id, marked as sending.
    case newMessage(
        conversation: ConversationID, text: String, attachments: [MediaModel.Attachment], sharedPost: MediaID?
    )
}
