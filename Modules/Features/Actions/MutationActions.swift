import Basics
import FeedCaching
import Foundation
import MediaModel
import Mutations
import ServerAPI
import TerminalUI
import Wire

/// The viewer's changes, carried out by the mutation manager: each is journaled (durable before
/// anything is sent), shown at once through the optimistic layer, and sent in its lane with its
/// client token. Screens only ever call these.
@MainActor
package final class MutationActions: ViewerActions {
    package let manager: MutationManager
    private weak var context: AppContext?
    /// The posts changes are about, found once in the feed cache: the Sync tab asks for the
    /// titles on every frame, and a cache read per change per frame does not belong on the UI
    /// actor.
    private var postsFound: [MediaID: Media] = [:]
    /// The accounts the viewer followed or unfollowed in this run, taken from the profile they
    /// did it on, so Sync names them ("follow · @grace"). The journal keeps only the account's
    /// id; after a restart a change of an earlier run is named without the handle.
    private var accountsFollowed: [UserID: User] = [:]

    /// The durable copies of photos picked from disk that changes upload.
    let photoCopies: PhotoCopies
    private var copiesObservation: ObservationToken?
    private var sweepScheduled = false
    /// Whether the session stopped (``stop()``): no more sweeps.
    private var stopped = false
    /// Why the last post or reply could not be written to the journal, until one is: shown in
    /// Sync beside the journal's own problems (the composer keeps the text meanwhile).
    private var unsavedPost: String?
    /// The last change handed to the journal: the next waits for it, so changes are journaled
    /// (and so sent, lane by lane) in the order the person made them. Two messages typed fast
    /// were journaled second first: each enqueue ran on a task of its own, and the journal took
    /// whichever reached it first.
    private var lastEnqueue: Task<Void, Never>?

    package init(manager: MutationManager, context: AppContext, uploadsDirectory: String) {
        self.manager = manager
        self.context = context
        let background = context.presentation.style.background
        photoCopies = PhotoCopies(
            directory: uploadsDirectory,
            background: PixelImage.Color(red: background.red, green: background.green, blue: background.blue))
        // A copy goes once no change in the journal names it (confirmed, discarded, or never
        // journaled): one sweep per burst of changes, tracked so a headless `wait` includes it.
        let tracker = context.tracker
        copiesObservation = manager.observe { [weak self] _ in
            tracker.begin()
            Task { @MainActor in
                self?.scheduleSweep()
                tracker.end()
            }
        }
        sweepCopies()
    }

    /// Posts the draft: its photos from disk are checked and copied into the data directory
    /// first, then one post (or reply) carrying them is journaled: one photo is a photo
    /// attachment, several a carousel.
    ///
    /// - Returns: false when the photos are refused (the status line says why): nothing was
    ///   journaled or copied, and the caller keeps the draft.
    @discardableResult
    package func submit(_ draft: Draft, whenSaved: @escaping @MainActor (_ problem: String?) -> Void) -> Bool
    {
        var photos: [Attachment.Photo] = []
        var copies: [String] = []
        if !draft.files.isEmpty {
            do {
                photos = try photoCopies.copy(draft.files)
                copies = photos.compactMap(\.file)
            } catch {
                context?.navigator?.showMessage("✕ " + error.message)
                return false
            }
        }
        let attachments: [Attachment] =
            photos.count > 1 ? [.carousel(photos.map { .photo($0) })] : photos.map { .photo($0) }
        let mutation: Mutation =
            if let parent = draft.replyingTo {
                .reply(to: parent.id, text: draft.text, attachments: attachments)
            } else {
                .post(text: draft.text, attachments: attachments)
            }
        if let parent = draft.replyingTo { remember(parent) }
        let noun = draft.replyingTo == nil ? "post" : "reply"
        enqueue(
            mutation, done: mutation.kind.progress, copies: copies,
            consumingDraft: draft.keptDraftID
        ) { [weak self] error in
            guard let error else {
                self?.unsavedPost = nil
                return whenSaved(nil)
            }
            let reason = Self.unsavedReason(error)
            self?.unsavedPost =
                "a \(noun) was not saved on this device; its text is kept in the composer · \(reason)"
            whenSaved(reason)
        }
        return true
    }

    /// Why a change could not be journaled, in a person's words (SQLite's own reason when the
    /// database refused the write: "the disk is full; free space and retry").
    static func unsavedReason(_ error: MutationError) -> String {
        error.cause ?? error.message
    }

    /// Stops sweeping: the session is stopping, and its manager no longer speaks for the
    /// journal. The next session on the same data directory (a restart in the same process) has
    /// copies this one never saw; a late sweep of this one would delete them.
    package func stop() {
        stopped = true
        copiesObservation?.cancel()
        copiesObservation = nil
    }

    /// Deletes the copies no change waiting in the journal names (never once stopped).
    func sweepCopies() {
        guard !stopped else { return }
        let waiting = manager.pending + manager.failed + manager.held
        photoCopies.sweep(keeping: Set(waiting.flatMap(\.mutation.photoFiles)))
    }

    private func scheduleSweep() {
        guard !sweepScheduled else { return }
        sweepScheduled = true
        context?.tracker.run { [weak self] in
            await Task.yield()
            self?.sweepScheduled = false
            self?.sweepCopies()
        }
    }

    package func change(_ mutation: Mutation, of post: Media) {
        remember(post)
        enqueue(mutation, done: mutation.kind.progress)
    }

    /// Keeps `post` to name the changes made to it (the feed cache is asked for the others).
    private func remember(_ post: Media) {
        if postsFound.count > 256 { postsFound.removeAll() }
        postsFound[post.id] = post
    }

    package func send(
        text: String, photos files: [PickedPhoto], to conversation: ConversationID, sharing: MediaID?,
        consumingDraft draft: String?, whenSaved: @escaping @MainActor (_ problem: String?) -> Void
    ) -> Bool {
        var photos: [Attachment.Photo] = []
        if !files.isEmpty {
            do {
                photos = try photoCopies.copy(files)
            } catch {
                context?.navigator?.showMessage("✕ " + error.message)
                return false
            }
        }
        let message = Mutation.message(
            in: conversation, text: text, attachments: photos.map { .photo($0) }, sharing: sharing)
        enqueue(message, done: nil, copies: photos.compactMap(\.file), consumingDraft: draft) { error in
            whenSaved(error.map(Self.unsavedReason))
        }
        return true
    }

    package func setFollowing(_ user: User, follows: Bool) {
        accountsFollowed[user.id] = user
        let change = Mutation(follows ? .follow : .unfollow, user.id)
        enqueue(change, done: change.kind.progress)
    }

    package func setProfile(
        displayName: String?, bio: String?, whenSaved: @escaping @MainActor (_ problem: String?) -> Void
    ) {
        enqueue(.profile(displayName: displayName, bio: bio), done: nil) { error in
            whenSaved(error.map { "\($0)" })
        }
    }

    /// Journals `mutation` off the UI actor; `saved` hears the outcome (nil once journaled, else
    /// the error, which is also shown on the status line unless `saved` is given).
    private func enqueue(
        _ mutation: Mutation, done message: String?, copies: [String] = [],
        consumingDraft draft: String? = nil,
        saved: (@MainActor (MutationError?) -> Void)? = nil
    ) {
        guard let context else {
            photoCopies.discardUnjournaled(copies)
            return
        }
        let manager = manager
        let photoCopies = photoCopies
        let previous = lastEnqueue
        lastEnqueue = context.tracker.run { [weak context] in
            await previous?.value
            do throws(MutationError) {
                let token = try await manager.enqueue(mutation, consumingDraft: draft)
                saved?(nil)
                photoCopies.settle(copies)
                if let message, mutation.kind.subject == .newPost {
                    // A new post is followed to the end ("posting…", then "posted"), wherever it
                    // was written from: the screen shown may not be the one it lands on.
                    context?.navigator?.showMessage(following: { [manager] in
                        switch manager.record(for: token)?.state {
                        case .pending?, .inFlight?: message
                        case .failed?: "✕ not posted · why, and retry, in Sync"
                        default: "posted · it is on top of Home"
                        }
                    })
                } else if let message {
                    // Said while it is true: the status line drops it once the server has the change.
                    context?.navigator?.showProgress(message) { [manager] in
                        guard let state = manager.record(for: token)?.state else { return false }
                        return state == .pending || state == .inFlight
                    }
                }
            } catch {
                photoCopies.discardUnjournaled(copies)
                if let saved {
                    saved(error)
                    return
                }
                context?.navigator?.showMessage("✕ could not save the change: \(error)")
            }
            if mutation.kind.subject == .newPost { context?.navigator?.revealNewest() }
        }
    }

    package var pendingChanges: [ChangeSummary] { manager.pending.map(summary) }

    package var failedChanges: [ChangeSummary] {
        manager.failed.map(summary) + manager.unreadableRows.map(Self.summary)
    }

    package var heldChanges: [String] { Self.heldLines(manager.held.map(\.account)) }

    /// One line per account with held changes, in the order the accounts first made one:
    /// "2 changes made as @lynn are held until @lynn signs in again". `accounts` holds each held
    /// change's account.
    package static func heldLines(_ accounts: [String?]) -> [String] {
        var order: [String?] = []
        var counts: [String?: Int] = [:]
        for account in accounts {
            if counts[account] == nil { order.append(account) }
            counts[account, default: 0] += 1
        }
        return order.map { account in
            let count = counts[account] ?? 0
            let changes = count == 1 ? "1 change" : "\(count) changes"
            let verb = count == 1 ? "is" : "are"
            guard let account else {
                return "\(changes) made by an account this device did not record \(verb) held: never sent"
            }
            return "\(changes) made as @\(account) \(verb) held until @\(account) signs in again"
        }
    }

    /// The Sync tab's token for an unreadable journal row: not a client token, so `retry` and
    /// `discard` know it.
    static let unreadablePrefix = "unreadable:"

    /// An unreadable journal row as a failed change, named by its raw kind (control characters
    /// shown as `?`, cut to 24 characters: it comes from the disk as is).
    static func summary(_ row: UnreadableMutation) -> ChangeSummary {
        var kind = String(
            row.kind.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        if kind.count > 24 { kind = kind.prefix(23) + "…" }
        return ChangeSummary(
            token: unreadablePrefix + String(row.sequence), title: "unreadable change · kind \"\(kind)\"",
            state: "failed", tries: 0,
            problem: "this version cannot read it, so it is never sent; x discards it",
            failed: true)
    }

    /// The journal sequence of an unreadable row's summary, or nil for a change.
    private static func unreadableSequence(_ change: ChangeSummary) -> Int64? {
        guard change.token.hasPrefix(unreadablePrefix) else { return nil }
        return Int64(change.token.dropFirst(unreadablePrefix.count))
    }

    package var journalProblem: String? {
        let problems = [manager.journalWriteFailure, unsavedPost].compactMap { $0 }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The post `id` from the feed cache, read once (a post not found is looked for again: a
    /// refresh may bring it).
    private func post(_ id: MediaID) -> Media? {
        if let found = postsFound[id] { return found }
        guard let found = try? context?.feedCache?.media(id) else { return nil }
        if postsFound.count > 256 { postsFound.removeAll() }
        postsFound[id] = found
        return found
    }

    private func summary(_ record: MutationRecord) -> ChangeSummary {
        let title = Self.title(of: record.mutation, media: { id in post(id) }, user: { accountsFollowed[$0] })
        let account = Self.account(of: record.mutation) { accountsFollowed[$0] }
        switch record.state {
        case .failed:
            return ChangeSummary(
                token: record.token.rawValue, title: title, state: "failed", tries: record.attempts,
                problem: Self.plain(record.lastError, of: record.mutation, account: account)
                    ?? "the server refused it", failed: true)
        case .inFlight:
            return ChangeSummary(
                token: record.token.rawValue, title: title, state: "sending", tries: record.attempts,
                problem: Self.plain(record.lastError, of: record.mutation, account: account))
        case .pending, .confirmed:
            var next = "now"
            if let at = record.nextAttemptAt, let now = context?.clock.now, at > now {
                next = "in \(Int(at.timeIntervalSince(now).rounded(.up)))s"
            }
            return ChangeSummary(
                token: record.token.rawValue, title: title, state: "waiting", tries: record.attempts,
                nextTry: next, problem: Self.plain(record.lastError, of: record.mutation, account: account))
        }
    }

    /// Why an attempt of `mutation` did not go through, for a person: the request's method and
    /// path left out, the transient classes said plainly ("no connection: it is sent when the
    /// network is back"), a refusal (403, 404) explained for the kind of change (a follow is
    /// refused for other reasons than a delete), the server's own message kept for the rest.
    /// `account` is the handle of the account a follow or unfollow is about, when known.
    static func plain(_ error: String?, of mutation: Mutation, account: String? = nil) -> String? {
        guard var text = error, !text.isEmpty else { return nil }
        if let range = text.range(of: #"^[A-Z]+ /\S*: "#, options: .regularExpression) {
            text.removeSubrange(range)
        }
        let refused = refusals(of: mutation, account: account)
        let plain: [(prefix: String, says: String)] = [
            ("offline", "no connection: it is sent when the network is back"),
            ("timed out", "no answer in time: it is tried again, and applied once"),
            ("server error", "the server had a problem: it is tried again"),
            ("rate limited", "the server asked to slow down: it is tried again"),
            ("request timeout", "no answer in time: it is tried again, and applied once"),
            ("unauthorized", "signed out: sign in again to send it"),
            ("not found", refused.notFound),
            ("forbidden", refused.forbidden),
        ].compactMap { prefix, says in says.map { (prefix, $0) } }
        if let match = plain.first(where: { text.hasPrefix($0.prefix) }) { return match.says }
        // A refusal: the server's words, without the status line and the advice meant for a
        // programmer.
        if let status = text.range(of: #"HTTP \d+ [^(:]*\([a-z_]+\): "#, options: .regularExpression) {
            text.removeSubrange(status)
        }
        // A 4xx's advice has a "; " of its own: cut it whole.
        let requestAdvice = "; fix the request; retrying it unchanged fails the same way"
        if text.hasSuffix(requestAdvice) { return String(text.dropLast(requestAdvice.count)) }
        if let advice = text.range(of: "; ", options: .backwards) {
            text = String(text[..<advice.lowerBound])
        }
        return text
    }

    /// What a 404 and a 403 mean for `mutation`, in a person's words, from its kind's
    /// description: a post that is gone or not theirs to delete, an account that is gone or that
    /// the server does not let them follow. Nil where the server's own message says it better.
    static func refusals(of mutation: Mutation, account: String?) -> (notFound: String?, forbidden: String?) {
        let who = account.map { "@" + $0 } ?? "this account"
        return (
            mutation.kind.notFound,
            mutation.kind.forbidden.map { $0.replacingOccurrences(of: "{account}", with: who) }
        )
    }

    /// The handle of the account a change of a user is about, when `user` knows it.
    static func account(of mutation: Mutation, user: (UserID) -> User?) -> String? {
        mutation.user.flatMap(user)?.handle
    }

    /// A change in a person's words: its kind's title, then whose post and its first words (at
    /// most 28 columns, so wide scripts are cut by what they take on screen) when
    /// `media` finds the post (`like · @mary · "Compiler cache mountain…"`), else "a post"; a
    /// change of a user names the account when `user` finds it (`follow · @grace`), else "an
    /// account".
    static func title(
        of mutation: Mutation, media: (MediaID) -> Media?, user: (UserID) -> User? = { _ in nil }
    ) -> String {
        func quoted(_ text: String) -> String {
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return "\"" + TextLayout.truncate(first, width: 28) + "\""
        }
        func post(_ id: MediaID) -> String {
            guard let found = media(id) else { return "a post" }
            let words = found.text.isEmpty ? found.kind.name : quoted(found.text)
            return "@\(found.author.handle) · \(words)"
        }
        let title = mutation.kind.title
        switch mutation.kind.subject {
        case .newPost:
            let text = mutation.text
            return "\(title) · " + (text.isEmpty ? "\(mutation.attachments.count) photo(s)" : quoted(text))
        case .reply:
            return "\(title) to \(mutation.media.map(post) ?? "a post") · \(quoted(mutation.text))"
        case .media:
            return "\(title) · \(mutation.media.map(post) ?? "a post")"
        case .user:
            return "\(title) · " + (mutation.user.flatMap(user).map { "@" + $0.handle } ?? "an account")
        case .account:
            let fields = mutation.profileFields
            return "\(title) · " + (fields.displayName.map(quoted) ?? fields.bio.map(quoted) ?? "unchanged")
        case .conversation:
            let text = mutation.text
            if !text.isEmpty { return "\(title) · \(quoted(text))" }
            if let shared = mutation.media { return "\(title) · sharing \(post(shared))" }
            return "\(title) · \(mutation.attachments.count) photo(s)"
        }
    }

    package func attemptLog(limit: Int, columns: [AttemptLogFormatter.Column]) -> [String] {
        guard limit > 0, let attempts = try? manager.attemptLog(limit: limit) else { return [] }
        let formatter = AttemptLogFormatter()
        return attempts.reversed().map { formatter.line($0, columns: columns) }
    }

    package func retry(_ change: ChangeSummary) {
        if Self.unreadableSequence(change) != nil {
            context?.navigator?.showMessage("✕ cannot retry: this version cannot read that change")
            return
        }
        do {
            if change.failed {
                try manager.retry(MutationToken(change.token))
            } else {
                try manager.sendNow(MutationToken(change.token))
            }
        } catch {
            context?.navigator?.showMessage("✕ cannot retry: \(error)")
        }
    }

    package func discard(_ change: ChangeSummary) {
        do {
            if let sequence = Self.unreadableSequence(change) {
                try manager.discardUnreadable(sequence)
                return
            }
            try manager.discard(MutationToken(change.token))
        } catch {
            context?.navigator?.showMessage("✕ cannot discard: \(error)")
        }
    }
}
