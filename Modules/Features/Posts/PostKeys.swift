import Foundation
import MediaModel
import Mutations
import ServerAPI
import TerminalUI

/// The keys every list of posts shares: each kind of change's key from its description
/// (`MutationKind.key`: `l` like or unlike, `r` reply in the `replyModel` socket's word, `s`
/// repost or undo the repost, `d` delete, pressed twice, the viewer's own post only), then `p`
/// the author's profile, and `m` to send the post in a message where the app has messages. Each change goes to the viewer's actions (the mutation manager), never
/// to the network directly.
@MainActor
enum PostKeys {
    /// What a post key does.
    enum Command: Hashable, Sendable {
        /// The key of a kind of change.
        case change(MutationKind)
        /// The author's profile.
        case profile
        /// Send the post to a conversation (in an app with direct messages).
        case share
    }

    /// The kinds with a post key, in `MutationKind.all`'s order.
    nonisolated static let keyed = MutationKind.all.filter { $0.key != nil }

    /// The rows for the post keys, giving `command` of each. The footer shows the keys whose
    /// description puts them there, or only the kinds in `footer` when given (`p` is in the help
    /// only: the footer must fit 80 columns). `noun` is what one reply is called
    /// (`PostPresentation.replyNoun`); `facts` are the selected post's, so a toggle's footer says
    /// what it does to that post now (the help says both). `shares` adds `m` (the app has
    /// conversations to send a post to: `AppContext.sharePost`).
    nonisolated static func rows<ScreenCommand>(
        noun: String, footer: Set<MutationKind>? = nil, facts: MediaFacts? = nil, shares: Bool = false,
        _ command: (Command) -> ScreenCommand
    ) -> [KeyTable<ScreenCommand>.Row] {
        var rows: [KeyTable<ScreenCommand>.Row] = []
        for kind in keyed {
            guard let key = kind.key else { continue }
            let shown = footer.map { $0.contains(kind) } ?? key.inFooter
            var now: String?
            if let facts, let on = key.footerOn, let off = key.footerOff {
                now = isOn(kind, facts) ? on : off
            }
            rows.append(
                KeyTable.Row(
                    [.character(key.character)], command(.change(kind)),
                    does: key.action == .compose ? noun : key.help,
                    footer: shown ? String(key.character) : nil, footerDoes: now))
        }
        rows.append(KeyTable.Row([.character("p")], command(.profile), does: "profile"))
        if shares {
            rows.append(KeyTable.Row([.character("m")], command(.share), does: "send the post in a message"))
        }
        return rows
    }

    /// Whether the flag a toggle kind sets is on in `facts`.
    nonisolated private static func isOn(_ kind: MutationKind, _ facts: MediaFacts) -> Bool {
        guard case .flag(let flag, _) = kind.effect else { return false }
        return facts[keyPath: flag.state]
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
        if command == .share {
            guard item.isConfirmed else {
                context.navigator?.showMessage("this post is not on the server yet")
                return nil
            }
            context.sharePost?(item.media)
            return nil
        }
        guard case .change(let kind) = command, let key = kind.key else { return nil }
        guard item.isConfirmed || key.action == .compose else {
            context.navigator?.showMessage("this post is not on the server yet")
            return nil
        }
        guard let actions = context.actions else {
            context.navigator?.showMessage("changes are not available in this build")
            return nil
        }
        switch key.action {
        case .compose:
            context.navigator?.push(ComposerScreen(context: context, replyingTo: item.media))
        case .toggle:
            let on = !isOn(kind, item.facts)
            let change = on ? kind : kind.undoKind ?? kind
            let message = key.said.map { Self.said(change, on: on, $0, item.media, context: context) }
            actions.change(Mutation(change, item.media.id), of: item.media)
            if let message { context.navigator?.showMessage(following: message) }
        case .confirmTwice:
            guard item.media.author.id == context.viewer?.id else {
                context.navigator?.showMessage("only @\(item.media.author.handle) can \(key.help) this post")
                return nil
            }
            guard asked == item.media.id else {
                context.navigator?.showMessage(
                    "press \(key.character) again to \(key.help) this post (any other key keeps it)")
                return item.media.id
            }
            actions.change(Mutation(kind, item.media.id), of: item.media)
        }
        return nil
    }

    /// What the status line says after a toggle key whose kind says something, for as long as it
    /// is true: "reposted @grace's post" or "repost of @grace's post undone"; once the server
    /// refused the change (rolled back), that it could not and where to see why; nothing once the
    /// post is back as it was for another reason. Read at every redraw until the next key.
    private static func said(
        _ change: MutationKind, on: Bool, _ words: MutationKind.PostKey.Said, _ media: Media,
        context: AppContext
    ) -> @MainActor () -> String? {
        let whose = "@\(media.author.handle)'s post"
        let done = (on ? words.on : words.off).replacingOccurrences(of: "{post}", with: whose)
        let refused =
            "✕ could not "
            + (on ? words.refusedOn : words.refusedOff).replacingOccurrences(of: "{post}", with: whose)
            + (context.retryHint ?? "")
        let mutation = Mutation(change, media.id)
        let mutations = context.mutations
        let failedBefore = mutations.failed.count { $0.mutation == mutation }
        var wasTrue = false
        return {
            if mutations.failed.count(where: { $0.mutation == mutation }) > failedBefore { return refused }
            if isOn(change, context.facts(for: media)) == on {
                wasTrue = true
                return done
            }
            // Until the change is journaled it is on its way; after, the post went back.
            return wasTrue ? nil : done
        }
    }
}
