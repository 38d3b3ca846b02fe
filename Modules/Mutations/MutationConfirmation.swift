import MediaModel
import ServerAPI

/// What a confirmed mutation leaves behind besides the shared facts its response carried (which
/// go to `MediaStore` and the feed cache): server data the lists on screen may not show yet.
///
/// The manager keeps it (in the journal, so it survives a restart) until a list that shows it
/// has been merged, so nothing flickers back between the confirmation and the next refresh.
///
/// Indirect: a journal row is small while it holds none (most rows, most of the time).
public indirect enum MutationConfirmation: Hashable, Sendable {
    /// Nothing beyond the facts (likes, reposts): `MediaStore` shows the change.
    case facts
    /// The server's post (or reply, with its parent), shown until a list holds it.
    case post(Media, parent: MediaID?)
    /// The media is deleted: hidden from every list for good.
    case deleted(MediaID)
    /// The viewer's relationship with a user, shown until a profile agrees.
    case relationship(UserID, following: Bool, followerCount: Int?)
    /// The server's message, shown at the bottom of its conversation until a page holds it.
    case message(Message)
}
