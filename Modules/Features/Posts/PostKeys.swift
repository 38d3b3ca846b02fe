import MediaModel
import Mutations
import ServerAPI
import TerminalUI

/// The keys every list of posts shares: `l` like or unlike, `r` reply (in the `replyModel`
/// socket's word), `s` repost or undo the repost, `p` the author's profile, `d` delete (the viewer's own post,
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
    /// one reply is called (`PostPresentation.replyNoun`); `reposted` is whether the viewer
    /// reposted the selected post, so the footer says what `s` does to it now (the help says
    /// both).
    static func rows<ScreenCommand>(
        noun: String, footer: Set<Command> = [.like, .reply, .repost], reposted: Bool = false,
        _ command: (Command) -> ScreenCommand
    ) -> [KeyTable<ScreenCommand>.Row] {
        let keys: [(Command, String, String, String?)] = [
            (.like, "l", "like", nil), (.reply, "r", noun, nil),
            (.repost, "s", "repost / undo repost", reposted ? "undo repost" : "repost"),
            (.profile, "p", "profile", nil), (.delete, "d", "delete", nil),
        ]
        return keys.map { post, key, does, now in
            KeyTable.Row(
                [.character(Character(key))], command(post), does: does,
                footer: footer.contains(post) ? key : nil, footerDoes: now)
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
            let reposted = !item.facts.viewerReposted
            let said = said(reposted: reposted, item.media, context: context)
            actions.toggleRepost(item.media, reposted: reposted)
            context.navigator?.showMessage(following: said)
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

    /// What the status line says after `s`, for as long as it is true: "reposted @grace's post"
    /// or "repost of @grace's post undone"; once the server refused the change (rolled back),
    /// that it could not and where to see why; nothing once the post is back as it was for
    /// another reason. Read at every redraw until the next key.
    private static func said(reposted: Bool, _ media: Media, context: AppContext)
        -> @MainActor () -> String?
    {
        let whose = "@\(media.author.handle)'s post"
        let done = reposted ? "reposted \(whose)" : "repost of \(whose) undone"
        let refused =
            "✕ could not " + (reposted ? "repost \(whose)" : "undo the repost of \(whose)")
            + (context.retryHint ?? "")
        let change: Mutation = reposted ? .repost(media.id) : .unrepost(media.id)
        let mutations = context.mutations
        let failedBefore = mutations.failed.count { $0.mutation == change }
        var wasTrue = false
        return {
            if mutations.failed.count(where: { $0.mutation == change }) > failedBefore { return refused }
            if context.facts(for: media).viewerReposted == reposted {
                wasTrue = true
                return done
            }
            // Until the change is journaled it is on its way; after, the post went back.
            return wasTrue ? nil : done
        }
    }
}
