import MediaModel
import ServerAPI

extension Mutation {
    /// What the mutation shows while it is pending.
    ///
    /// Adding a kind: say what the user should see at once; add an `OptimisticEffect` case only
    /// for a change none of the existing ones describes (then teach `OptimisticLayer` and the
    /// merges to apply it).
    public var optimisticEffect: OptimisticEffect {
        switch self {
        case .post(let text, let attachments): .newPost(text: text, attachments: attachments)
        case .reply(let parent, let text, let attachments):
            .newReply(parent: parent, text: text, attachments: attachments)
        case .like(let id): .liked(id, true)
        case .unlike(let id): .liked(id, false)
        case .repost(let id): .reposted(id, true)
        case .unrepost(let id): .reposted(id, false)
        case .delete(let id): .hidden(id)
        case .follow(let id): .following(id, true)
        case .unfollow(let id): .following(id, false)
        }
    }
}
