import MediaModel
import TerminalUI

/// The keys every list of posts shares: `l` like or unlike, `r` reply (in the `replyModel`
/// socket's word), `s` repost, `p` the author's profile, `d` delete (the viewer's own post,
/// pressed twice). Each change goes to the viewer's actions (the mutation manager), never to the
/// network directly.
@MainActor
enum PostKeys {
    /// What a post key does.
    enum Command: Sendable {
        case like, reply, repost, profile, delete
    }

    /// The rows for the post keys, giving `command` of each; the footer shows those in
    /// `footer` (`p` and `d` are in the help only: the footer must fit 80 columns). `noun` is what
    /// one reply is called (`PostPresentation.replyNoun`).
    static func rows<ScreenCommand>(
        noun: String, footer: Set<Command> = [.like, .reply, .repost],
        _ command: (Command) -> ScreenCommand
    ) -> [KeyTable<ScreenCommand>.Row] {
        let keys = [
            (Command.like, "l", "like"), (.reply, "r", noun), (.repost, "s", "repost"),
            (.profile, "p", "profile"), (.delete, "d", "delete"),
        ]
        return keys.map { post, key, does in
            KeyTable.Row(
                [.character(Character(key))], command(post), does: does,
                footer: footer.contains(post) ? key : nil)
        }
    }

    /// Performs `command` on the post `item`, or says why not; a profile opens at `size` (the
    /// screen's content area). `asked` is the post a previous `d` asked about (the key just
    /// before this one); the result is the post this key asks about, which the screen passes back
    /// with the next key (so any other key cancels).
    static func perform(
        _ command: Command, item: PostItem?, context: AppContext, size: (width: Int, height: Int),
        asked: MediaID? = nil
    ) -> MediaID? {
        guard let item else {
            context.navigator?.showMessage("select a post first")
            return nil
        }
        if command == .profile {
            context.navigator?.push(
                ProfileScreen(
                    context: context, userID: item.media.author.id, width: size.width, height: size.height))
            return nil
        }
        guard item.isConfirmed || command == .reply else {
            context.navigator?.showMessage("this post is not on the server yet")
            return nil
        }
        guard let actions = context.actions else {
            context.navigator?.showMessage("changes are not available in this build")
            return nil
        }
        switch command {
        case .like:
            actions.toggleLike(item.media, liked: !item.facts.viewerLiked)
        case .repost:
            actions.repost(item.media)
            context.navigator?.showMessage("reposting @\(item.media.author.handle)'s post")
        case .reply:
            context.navigator?.push(ComposerScreen(context: context, replyingTo: item.media))
        case .profile:
            break  // Opened above: a post need not be on the server for its author's profile.
        case .delete:
            guard item.media.author.id == context.viewer?.id else {
                context.navigator?.showMessage("only @\(item.media.author.handle) can delete this post")
                return nil
            }
            guard asked == item.media.id else {
                context.navigator?.showMessage("press d again to delete this post (any other key keeps it)")
                return item.media.id
            }
            actions.delete(item.media)
        }
        return nil
    }
}
