import MediaModel
import ServerAPI

extension Mutation {
    /// What the confirming response of this mutation leaves behind (see `MutationConfirmation`).
    ///
    /// Adding a kind: facts alone when `MediaStore` shows the change; otherwise keep the server
    /// data the lists need until they catch up.
    public func confirmation(from result: MutationResult) -> MutationConfirmation {
        switch self {
        case .post:
            guard let media = result.media else { return .facts }
            return .post(media, parent: nil)
        case .reply(let parent, _, _):
            guard let media = result.media else { return .facts }
            return .post(media, parent: result.parentID ?? parent)
        case .like, .unlike, .repost, .unrepost: return .facts
        case .delete(let id): return .deleted(result.mediaID ?? id)
        case .follow(let id):
            return .relationship(
                result.userID ?? id, following: result.following ?? true, followerCount: result.followerCount)
        case .unfollow(let id):
            return .relationship(
                result.userID ?? id, following: result.following ?? false,
                followerCount: result.followerCount)
        }
    }
}
