import MediaModel
import ServerAPI

/// What a screen reads of the viewer's changes: the server's data merged with the changes not yet
/// confirmed, so a refresh never hides one, and the changes that failed for good.
///
/// `MutationManager` is the app's one implementation; a screen holds this interface (through
/// `AppContext`), so it compiles against no manager, journal or database, and a screen test can
/// give it a manager over a stub transport, or a stub of its own.
///
/// ```swift
/// let merged = changes.mergedThread(page, facts: facts)
/// let marks = changes.notSent(merged.post.id, facts: changes.mergedFacts(facts[id], for: id))
/// ```
public protocol PendingChanges: AnyObject, Sendable {
    /// The signed-in account's failed changes, in the order they were made.
    var failed: [MutationRecord] { get }

    /// The server's facts of one media with the pending effects applied.
    func mergedFacts(_ facts: MediaFacts?, for id: MediaID) -> MediaFacts

    /// The home feed's entries (newest first) with pending posts on top, deleted ones gone, and
    /// the pending effects on every entry's facts from `store`.
    func mergedHomeFeed(_ entries: [FeedEntry], store: MediaStore) -> [MergedEntry]

    /// A thread page with the pending replies, deletions and effects applied.
    func mergedThread(_ page: ThreadPage, facts: [MediaID: MediaFacts]) -> MergedThread

    /// A profile with the pending follow, posts and profile edit applied.
    func mergedProfile(_ profile: Profile, facts: [MediaID: MediaFacts]) -> MergedProfile

    /// A conversation's messages with this device's unconfirmed ones after the server's
    /// (`page` nil: this device's alone).
    func mergedConversation(_ id: ConversationID, page: MessagePage?) -> MergedConversation

    /// Whether the viewer follows `user`, given the server's answer.
    func isFollowing(_ user: UserID, server: Bool) -> Bool

    /// The kinds of this device's changes to a post that failed for good and still show
    /// (a flag the merged `facts` hold set as wanted is not one).
    func notSent(_ id: MediaID, facts: MediaFacts) -> [MutationKind]

    /// Whether a change made from the app-side draft `id` was journaled: the draft was posted.
    func isDraftConsumed(_ id: String) -> Bool
}

extension MutationManager: PendingChanges {}
