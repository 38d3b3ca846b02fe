import MediaModel
import Mutations
import ServerAPI

/// Every change the viewer makes, as screens ask for it. Screens never send a change
/// themselves: the app's implementation hands each one to the mutation manager, which journals
/// it, shows it at once, and sends it.
@MainActor
package protocol ViewerActions: AnyObject {
    /// Posts a new post or a reply. `whenSaved` is called on the UI actor once the change is in
    /// the journal (`nil`: it will be sent, and the draft can go) or could not be written there
    /// (the reason, in a person's words: nothing was posted, and the draft must stay).
    ///
    /// - Returns: false when the draft is refused at once (a picked file that is not a photo, or
    ///   too big): the status line says why, nothing was posted, `whenSaved` is not called, and
    ///   the caller keeps the draft.
    @discardableResult
    func submit(_ draft: Draft, whenSaved: @escaping @MainActor (_ problem: String?) -> Void) -> Bool
    /// Makes a change of `post` (a like, a repost, a delete, or one taken back): journaled off
    /// the UI actor and shown at once; a failure to save it is said on the status line. The
    /// post is what Sync names the change by (the viewer's own new post is in no cache yet).
    func change(_ mutation: Mutation, of post: Media)
    /// Sends a message (a `message` mutation) to `conversation`: `text`, the photos picked from
    /// disk (copied first, as a post's are), and the post `sharing` names. Journaled off the UI
    /// actor, shown at once at the bottom of its conversation, sent in the order typed.
    /// `whenSaved` hears nil once it is in the journal (the draft `consumingDraft` names is used
    /// up in the same commit), else why it could not be saved (nothing was sent; the draft must
    /// stay).
    ///
    /// - Returns: false when a photo is refused at once (not a photo, too big): the status line
    ///   says why, nothing was sent, and `whenSaved` is not called.
    @discardableResult
    func send(
        text: String, photos: [PickedPhoto], to conversation: ConversationID, sharing: MediaID?,
        consumingDraft draft: String?, whenSaved: @escaping @MainActor (_ problem: String?) -> Void
    ) -> Bool
    /// Follows the account (its posts come to Home from the next refresh), or unfollows it when
    /// `follows` is false.
    func setFollowing(_ user: User, follows: Bool)
    /// Sets the viewer's display name, bio or both (nil keeps one as it is): journaled, shown on
    /// their profile at once, sent when the server can be reached; `whenSaved` hears the
    /// journal's outcome (nil once saved, else the problem).
    func setProfile(
        displayName: String?, bio: String?, whenSaved: @escaping @MainActor (_ problem: String?) -> Void)
    /// The changes not yet confirmed, oldest first.
    var pendingChanges: [ChangeSummary] { get }
    /// The changes the server refused, oldest first.
    var failedChanges: [ChangeSummary] { get }
    /// Changes other accounts made on this device that have not reached the server, one line
    /// per account in a person's words: held, never sent as the account signed in.
    var heldChanges: [String] { get }
    /// The last bookkeeping write to the change journal that failed, or nil (the changes are
    /// still sent; what was not saved is named).
    var journalProblem: String? { get }
    /// The most recent attempts to send changes, newest first, one line each, their cells
    /// in `columns` of the attempt table (`AttemptLogFormatter.columns(fitting:)`).
    func attemptLog(limit: Int, columns: [AttemptLogFormatter.Column]) -> [String]
    /// Tries a failed change again, or sends a waiting one now.
    func retry(_ change: ChangeSummary)
    /// Gives up on a failed change (its effect is already rolled back).
    func discard(_ change: ChangeSummary)
}

extension ViewerActions {
    /// Posts a new post or a reply, without waiting to hear that it was saved.
    @discardableResult
    package func submit(_ draft: Draft) -> Bool { submit(draft, whenSaved: { _ in }) }
}

/// One change as the Sync screen lists it, in a person's words.
package struct ChangeSummary: Sendable, Hashable {
    /// The change's client token.
    package var token: String
    /// What it is, named by what it is about: `like · @mary · "Compiler cache mountain…"`.
    package var title: String
    /// Where it stands: "waiting", "sending" or "failed".
    package var state: String
    /// How many attempts were made.
    package var tries: Int
    /// When the next attempt starts ("in 4s", "now"), for a waiting change.
    package var nextTry: String?
    /// Why the last attempt did not go through, in plain words, if one did not.
    package var problem: String?
    /// Whether the server refused it for good (it can be retried or discarded).
    package var failed: Bool

    /// Makes a summary.
    package init(
        token: String, title: String, state: String, tries: Int, nextTry: String? = nil,
        problem: String? = nil,
        failed: Bool = false
    ) {
        self.token = token
        self.title = title
        self.state = state
        self.tries = tries
        self.nextTry = nextTry
        self.problem = problem
        self.failed = failed
    }
}
