import MediaModel
import ServerAPI

extension Mutation {
    /// The media the mutation acts on (a reply's parent; the liked, reposted or deleted post), or
    /// nil when it names none (a new post, a follow).
    ///
    /// A target that is a post still pending on this device (`local:<token>`) makes the mutation
    /// wait for that post: it is sent with the server's id once the post is confirmed.
    public var targetMedia: MediaID? {
        switch self {
        case .post, .follow, .unfollow: nil
        case .reply(let parent, _, _): parent
        case .like(let id), .unlike(let id), .repost(let id), .unrepost(let id), .delete(let id): id
        }
    }

    /// The same mutation acting on `target` instead (a pending post's server id, once known).
    public func retargeted(to target: MediaID) -> Mutation {
        switch self {
        case .post, .follow, .unfollow: self
        case .reply(_, let text, let attachments): .reply(to: target, text: text, attachments: attachments)
        case .like: .like(target)
        case .unlike: .unlike(target)
        case .repost: .repost(target)
        case .unrepost: .unrepost(target)
        case .delete: .delete(target)
        }
    }
}
