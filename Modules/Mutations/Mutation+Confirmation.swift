import MediaModel
import ServerAPI
import Wire

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

    /// What a refusal of this mutation leaves behind when the refusal means the change already
    /// holds, or nil when it is a refusal (the mutation fails and its effect is rolled back).
    ///
    /// A delete answered 404 is done: the post is already gone (deleted from another device or
    /// the other app), which is what the delete asked for, so it stays hidden rather than coming
    /// back. Every other refusal, a like of a post that is gone included, is a refusal.
    public func confirmation(refusedWith error: TransportError) -> MutationConfirmation? {
        switch self {
        case .delete(let id) where error.errorClass == .notFound: .deleted(id)
        default: nil
        }
    }
}
