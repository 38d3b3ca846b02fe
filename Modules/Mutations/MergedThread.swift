import MediaModel

/// A thread as a screen shows it: the ancestors and the post with merged facts, and the replies,
/// with replies made on this device appended in the order they were made.
public struct MergedThread: Hashable, Sendable {
    /// The chain of parents, root first.
    public var ancestors: [Media]
    /// The post the thread is about (a local one while pending, the server's once confirmed).
    public var post: Media
    /// Whether the post is server data, pending or failed.
    public var postStatus: OptimisticStatus
    /// Whether the post is deleted (by a pending or confirmed delete of this device).
    public var isDeleted: Bool
    /// The merged facts of the ancestors and the post.
    public var facts: [MediaID: MediaFacts]
    /// The replies, oldest first; pending, failed and newly confirmed ones of this device at the end.
    public var replies: [MergedEntry]
    /// The cursor of the next page of server replies, if any.
    public var nextCursor: String?

    /// Makes a merged thread.
    public init(
        ancestors: [Media], post: Media, postStatus: OptimisticStatus, isDeleted: Bool,
        facts: [MediaID: MediaFacts], replies: [MergedEntry], nextCursor: String?
    ) {
        self.ancestors = ancestors
        self.post = post
        self.postStatus = postStatus
        self.isDeleted = isDeleted
        self.facts = facts
        self.replies = replies
        self.nextCursor = nextCursor
    }
}
