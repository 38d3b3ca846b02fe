/// The kinds of `Mutation`, without their values: what journals, logs and per-kind settings
/// (retry policies) name.
///
/// The raw values are stable: the journal and the attempt log store them.
public enum MutationKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A new post.
    case post
    /// A reply to a post.
    case reply
    /// A like.
    case like
    /// A like taken back.
    case unlike
    /// A repost.
    case repost
    /// A repost taken back.
    case unrepost
    /// The deletion of one's own post.
    case delete
    /// Following a user.
    case follow
    /// No longer following a user.
    case unfollow

    /// The raw value (`"like"`).
    public var description: String { rawValue }
}
