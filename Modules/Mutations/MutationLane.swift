import MediaModel
import ServerAPI

/// A queue of mutations sent strictly in the order they were made, one in flight at a time;
/// different lanes run concurrently. Chosen by `Mutation.lane` from the kind's subject:
///
/// | kind | lane |
/// | --- | --- |
/// | post | `posts` (all of the viewer's new posts) |
/// | reply | `thread:<parent id>` |
/// | a change of a post (like, unlike, repost, unrepost, delete) | `media:<media id>` |
/// | follow, unfollow | `user:<user id>` |
/// | message | `conversation:<conversation id>` |
public struct MutationLane: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The lane's name as the journal stores it (`"media:m42"`).
    public let rawValue: String

    /// Wraps a lane name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The viewer's new posts.
    public static let posts = MutationLane(rawValue: "posts")

    /// The viewer's own account: edits of their name and bio, in the order made.
    public static let account = MutationLane(rawValue: "account")

    /// The mutations of one media (like, unlike, repost, unrepost, delete).
    public static func media(_ id: MediaID) -> MutationLane { MutationLane(rawValue: "media:\(id.rawValue)") }

    /// The replies to one post.
    public static func thread(_ parent: MediaID) -> MutationLane {
        MutationLane(rawValue: "thread:\(parent.rawValue)")
    }

    /// The viewer's relationship with one user (follow, unfollow).
    public static func user(_ id: UserID) -> MutationLane { MutationLane(rawValue: "user:\(id.rawValue)") }

    /// The messages of one conversation, sent in the order typed.
    public static func conversation(_ id: ConversationID) -> MutationLane {
        MutationLane(rawValue: "conversation:\(id.rawValue)")
    }

    /// Orders lanes by name.
    public static func < (lhs: MutationLane, rhs: MutationLane) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The lane's name.
    public var description: String { rawValue }
}
