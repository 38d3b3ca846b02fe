import MediaModel
import TerminalUI

/// The keys every list of posts shares: `l` like or unlike, `r` reply, `s` repost. Each change
/// goes to the viewer's actions (the mutation manager), never to the network directly.
@MainActor
enum PostKeys {
    /// Handles `key` for the post `item`; false when the key is not a post key.
    static func handle(_ key: Key, item: PostItem?, context: AppContext, listSize: (width: Int, height: Int))
        -> Bool
    {
        guard case .character(let character) = key, "lrs".contains(character) else { return false }
        guard let item else {
            context.navigator?.showMessage("select a post first")
            return true
        }
        guard item.isConfirmed || character == "r" else {
            context.navigator?.showMessage("this post is not on the server yet")
            return true
        }
        guard let actions = context.actions else {
            context.navigator?.showMessage("changes are not available in this build")
            return true
        }
        switch character {
        case "l":
            actions.toggleLike(item.media, liked: !item.facts.viewerLiked)
        case "s":
            actions.repost(item.media)
            context.navigator?.showMessage("reposting @\(item.media.author.handle)'s post")
        default:
            context.navigator?.push(ComposerScreen(context: context, replyingTo: item.media))
        }
        return true
    }
}
