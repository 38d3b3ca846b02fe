import ServerAPI

extension Mutation {
    /// The lane the mutation is sent in: mutations of one lane go strictly in the order made.
    ///
    /// Adding a kind: pick the lane whose order matters for it (see `MutationLane`).
    public var lane: MutationLane {
        switch self {
        case .post: .posts
        case .reply(let parent, _, _): .thread(parent)
        case .like(let id), .unlike(let id), .repost(let id), .unrepost(let id), .delete(let id): .media(id)
        case .follow(let id), .unfollow(let id): .user(id)
        }
    }
}
