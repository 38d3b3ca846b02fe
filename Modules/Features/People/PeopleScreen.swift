import Composition
import MediaModel
import Mutations
import ServerAPI
import TerminalUI
import Wire

/// Find people: a search over every account by handle or name, so a new account with an empty
/// Home finds someone to follow. The text field has the focus the whole time, so every printable
/// key is text (`q`, digits and `/` included) and a paste goes into it. Results follow the text
/// as it is typed (MediaModel's `UserMatch`: handles that start with it, then names with a word
/// that does), each row with the name, handle, follower count and whether the viewer follows
/// them; an answer to older text never replaces the answer to newer text. ↑ ↓ choose, enter
/// opens the profile (where `f` follows), esc goes back.
@MainActor
package final class PeopleScreen: AppScreen {
    private let context: AppContext
    private let field = TextField(
        placeholder: "type a handle or a name", mode: .singleLine, limit: PeopleScreen.textLimit)
    private var width: Int
    private var height: Int
    /// The accounts found for `resultsText`, best first.
    private var results: [AccountSummary] = []
    /// The text the results answer.
    private var resultsText = ""
    private var selection = 0
    /// Why the last search failed, while it stands.
    private var problem: String?
    /// Counts searches: only the newest one's answer is shown.
    private var generation = 0
    private var searching: Task<Void, Never>?

    /// The most accounts one search shows.
    package static let resultLimit = 20
    /// The longest search text, in characters: the accounts route's own limit (it refuses
    /// longer text), so the field stops there rather than the search failing.
    package static let textLimit = 100
    /// The lines above the results: the field and the line saying how the search went.
    private static let headerLines = 2

    /// What enter does with the chosen account, when not opening its profile.
    package struct Pick {
        /// The screen's title ("New message").
        package var title: String
        /// What enter does, in the help's words ("message them").
        package var does: String
        /// Called with the chosen account.
        package var action: @MainActor (User) -> Void

        /// Makes a pick.
        package init(title: String, does: String, action: @escaping @MainActor (User) -> Void) {
            self.title = title
            self.does = does
            self.action = action
        }
    }

    /// What enter does instead of opening the profile, if anything.
    private let pick: Pick?

    /// Makes the screen for a content area of `width` × `height`; with `pick`, enter hands the
    /// chosen account to it (to start a conversation, say) instead of opening its profile.
    package init(context: AppContext, width: Int, height: Int, pick: Pick? = nil) {
        self.context = context
        self.width = width
        self.height = height
        self.pick = pick
    }

    package var title: String { pick?.title ?? "Find people" }

    package var capturesText: Bool { true }

    /// The text typed so far (for tests).
    package var text: String { field.text }

    /// The accounts listed now, best first (for tests).
    package var found: [AccountSummary] { results }

    /// Coming back (from a profile, say) asks again, so who the viewer follows is up to date; the
    /// same account stays selected.
    package func appear() {
        search(keeping: results.indices.contains(selection) ? results[selection].user.id : nil)
    }

    // MARK: Keys

    /// What the screen's keys do.
    enum Command: Sendable {
        case next, previous, open, back
    }

    /// The screen's keys: the one place to add one. Every key not listed here is the field's.
    var keys: KeyTable<Command> {
        KeyTable([
            .note("type a handle or name"),
            .init([(.down, .next), (.up, .previous)], label: "↑ ↓", does: "choose", footer: "↑↓"),
            .init([.enter], .open, does: pick?.does ?? "open the profile", footer: "enter"),
            .init([.escape], .back, does: "back", footer: "esc"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        guard let command = keys.command(for: key) else {
            let before = field.text
            let edited = field.handle(.key(key))
            if field.text != before { textDidChange() }
            // Backspace on an empty field stays here: only esc leaves.
            return edited || key == .backspace
        }
        switch command {
        case .next: selection = min(selection + 1, max(results.count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .open: openSelected()
        case .back: context.navigator?.pop()
        }
        return true
    }

    /// A paste is text (line breaks as spaces).
    package func paste(_ text: String) -> Bool {
        let before = field.text
        field.handle(.paste(text))
        if field.text != before { textDidChange() }
        return true
    }

    private func textDidChange() {
        selection = 0
        search(keeping: nil)
    }

    private func openSelected() {
        guard results.indices.contains(selection) else { return }
        if let pick { return pick.action(results[selection].user) }
        context.navigator?.push(
            ProfileScreen(context: context, userID: results[selection].user.id, width: width, height: height))
    }

    // MARK: Searching

    /// Asks for the accounts matching the text now; the answer replaces the results only if no
    /// newer search started meanwhile. `keeping` stays selected when the answer lists it.
    private func search(keeping kept: UserID?) {
        generation += 1
        let mine = generation
        searching?.cancel()
        let text = field.text
        guard !UserMatch.query(text).isEmpty else {
            searching = nil
            results = []
            resultsText = text
            problem = nil
            return
        }
        let client = context.client
        searching = context.tracker.run { [weak self] in
            let outcome: Result<[AccountSummary], TransportError>
            do throws(TransportError) {
                outcome = .success(
                    try await client.searchAccounts(text, limit: Self.resultLimit).payload.accounts)
            } catch {
                outcome = .failure(error)
            }
            guard let self, self.generation == mine else { return }
            switch outcome {
            case .success(let accounts):
                self.results = accounts
                self.resultsText = text
                self.problem = nil
                self.selection = kept.flatMap { id in accounts.firstIndex { $0.user.id == id } } ?? 0
            case .failure(let error):
                self.problem = Self.describe(error)
            }
            self.context.navigator?.setNeedsDisplay()
        }
    }

    /// Why a search failed, in the person's terms.
    static func describe(_ error: TransportError) -> String {
        switch error.errorClass {
        case .offline: "offline: cannot search until the network is back"
        case .timeout, .requestTimeout: "the server did not answer in time; type to try again"
        default: "could not search: \(error.errorClass)"
        }
    }

    // MARK: Drawing

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        buffer.put("Find: ", style: style.text, x: rect.x + 1, y: rect.y, clip: rect)
        let cursor = field.draw(
            into: &buffer, in: Rect(x: rect.x + 7, y: rect.y, width: max(rect.width - 8, 4), height: 1))
        if let note = note {
            buffer.putTruncated(
                StyledLine(note, style: problem == nil ? style.secondary : style.failure),
                in: Rect(x: rect.x + 1, y: rect.y + 1, width: max(rect.width - 2, 1), height: 1))
        }
        let visible = max(rect.height - Self.headerLines, 1)
        let first = max(0, selection - visible + 1)
        for (offset, account) in results.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            buffer.putTruncated(
                row(account, selected: index == selection, width: rect.width),
                in: Rect(x: rect.x, y: rect.y + Self.headerLines + offset, width: rect.width, height: 1))
        }
        return cursor
    }

    /// The line under the field: why the search failed, or that nothing matches.
    private var note: String? {
        if let problem { return problem }
        if results.isEmpty, resultsText == field.text, !UserMatch.query(field.text).isEmpty {
            return "no account matches '\(field.text)'"
        }
        return nil
    }

    /// One account: `▌ Kathleen Ito  @kathleen · 12 followers · you follow`, with the viewer's
    /// pending follow or unfollow merged, in `width` columns: a long name is cut so the handle
    /// and what follows it show whole.
    private func row(_ account: AccountSummary, selected: Bool, width: Int) -> StyledLine {
        let style = context.style
        let user = account.user
        let server = account.viewerFollows ?? false
        let follows = context.mutations.isFollowing(user.id, server: server)
        let followers = max(0, account.followerCount + (follows == server ? 0 : follows ? 1 : -1))
        var name = StyledLine(selected ? "▌ " : "  ", style: style.accent)
        name.append(user.displayName, style: selected ? style.strong : style.text)
        var rest = StyledLine("  @" + user.handle, style: style.secondary)
        rest.append(" · \(followers) \(Plural.of("follower", count: followers))", style: style.secondary)
        if user.id == context.viewer?.id {
            rest.append(" · you", style: style.secondary)
        } else if follows {
            rest.append(" · you follow", style: style.accent)
        }
        return TextLayout.truncate(name, keeping: rest, width: width)
    }

    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
