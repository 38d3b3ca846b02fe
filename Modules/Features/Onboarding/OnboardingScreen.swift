import Composition
import Foundation
import MediaModel
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// The first launch: the choices of the `onboarding` socket, given the accounts that already
/// exist on the backend. One app only creates accounts (pick a handle); another offers to
/// continue as an existing account (bringing its name, avatar and follows) or to create one.
///
/// Whatever the socket offers, the list ends with one more row: signing in to any existing
/// account, found by typing its handle or name, then its password. The socket decides the
/// title and which accounts are listed, never whether a person can get back in to an account
/// they have ("Sign in to an existing account" where it lists none, "Continue as another
/// account" beside those it lists).
///
/// Every way in needs a credential. Creating an account asks for a handle, then a password (8
/// characters at least, masked, its length said as it is typed). Continuing as a demo account
/// (the server is in demo mode) signs in with `DemoAccounts.password` without asking; any other
/// account asks for its password. The same screen asks a person to sign in again when their
/// saved session ended (``init(context:notice:onCancel:onDone:)``'s notice says why).
@MainActor
package final class OnboardingScreen: AppScreen {
    private let context: AppContext
    private let onDone: @MainActor (Session) -> Void
    /// Closes the screen with the account signed in before kept, when there is one (an account
    /// switch inside the run); nil at launch, when there is no account to go back to.
    private let onCancel: (@MainActor () -> Void)?
    private var choices: [OnboardingChoice] = []
    private var selection = 0
    private var loading = false
    /// Whether the accounts were asked for and the socket's choices are known.
    private var loaded = false
    private var creating = false
    private let handleField = TextField(placeholder: "handle (a-z, 0-9, _)", mode: .singleLine)
    /// The account a password is being typed for: a new one (after its handle) or an existing one.
    private var passwordFor: PasswordPurpose?
    private let passwordField = TextField(mode: .singleLine, limit: OnboardingScreen.passwordLimit)
    /// The handles of the demo accounts (they sign in with the demo password, unasked).
    private var demoHandles: Set<String> = []
    /// Every account on the backend, for finding one by handle or name.
    private var accounts: [OnboardingAccount] = []
    /// Whether the person is typing to find an account to continue as.
    private var finding = false
    private let findField = TextField(placeholder: "a handle or a name", mode: .singleLine)
    private var matchSelection = 0
    private var message: String?
    /// A listed account Enter was pressed on, asked about before continuing as it: a row read
    /// wrong must not sign a person in as someone else on one key.
    private var confirming: OnboardingAccount?
    /// The rows of the list drawn (it scrolls to keep the selection in view).
    private var window = ScrollWindow()

    /// Why a password is asked for.
    private enum PasswordPurpose: Equatable {
        /// A new account with this handle.
        case create(String)
        /// Signing in as this existing account.
        case signIn(String)

        var handle: String {
            switch self {
            case .create(let handle), .signIn(let handle): handle
            }
        }
    }

    /// Makes the screen.
    ///
    /// - Parameters:
    ///   - context: the app's context (its client, registry and style).
    ///   - notice: shown until the first key, when the person is here for a reason (their saved
    ///     session ended and must be signed in again).
    ///   - onCancel: when set, esc on the list of accounts runs it (staying signed in as the
    ///     account before: an account switch).
    ///   - onDone: runs with the signed-in session.
    package init(
        context: AppContext, notice: String? = nil, onCancel: (@MainActor () -> Void)? = nil,
        onDone: @escaping @MainActor (Session) -> Void
    ) {
        self.context = context
        self.onDone = onDone
        self.onCancel = onCancel
        message = notice
    }

    package var title: String { "Welcome" }

    package var capturesText: Bool { creating || finding || passwordFor != nil || confirming != nil }

    /// The fewest characters a new password may have (the server's rule).
    nonisolated static let passwordMinimum = 8
    /// The most characters a password may have (the server's rule).
    nonisolated static let passwordLimit = 200

    /// The message, on the status line when it fits; a longer one is drawn whole on the screen.
    package var status: String? {
        guard let message, message.displayWidth <= drawnWidth else { return nil }
        return message
    }

    /// The choices offered now (for tests).
    package var offered: [OnboardingChoice] { choices }

    /// Whether the welcome screen offers its last row, signing in to any existing account by
    /// typing its handle or name: always, once the accounts are known, whatever the `onboarding`
    /// socket's choices (the few accounts a socket lists are the most followed; every other one
    /// is found here).
    package var findsOtherAccounts: Bool { loaded }

    /// Whether the socket lists accounts to continue as.
    private var listsAccounts: Bool {
        choices.contains { if case .continueAs = $0 { true } else { false } }
    }

    /// The words of the last row: "another account" beside the accounts the socket lists, "an
    /// existing account" where it lists none.
    private var signInLabel: String {
        (listsAccounts ? "Continue as another account" : "Sign in to an existing account")
            + " (type its handle or name)"
    }

    /// The rows of the list: the socket's choices, then signing in to any account.
    private var rowCount: Int { choices.count + (findsOtherAccounts ? 1 : 0) }

    /// The accounts whose handle or name matches what is typed, best first, at most `limit`: the
    /// rule the backend's account search keeps too (MediaModel's `UserMatch`: handles that start
    /// with it, then names with a word that does). Nothing typed lists the first `limit`.
    package static func matches(_ query: String, in accounts: [OnboardingAccount], limit: Int = 6)
        -> [OnboardingAccount]
    {
        guard !UserMatch.query(query).isEmpty else { return Array(accounts.prefix(limit)) }
        return Array(
            UserMatch.ranked(query, accounts, handle: \.handle, displayName: \.displayName).prefix(limit))
    }

    /// The accounts matching what is typed now. Where the socket lists no accounts, none are
    /// listed here either until something is typed: the welcome screen stays what it chose to be.
    package var findMatches: [OnboardingAccount] {
        guard listsAccounts || !UserMatch.query(findField.text).isEmpty else { return [] }
        return Self.matches(findField.text, in: accounts)
    }

    package func appear() {
        guard !loaded, !loading else { return }
        loading = true
        let client = context.client.signedIn(with: nil)
        context.tracker.run { [weak self] in
            let accounts = (try? await client.accounts().payload.accounts) ?? []
            guard let self else { return }
            self.loading = false
            self.loaded = true
            self.demoHandles = Set(accounts.filter(\.isDemo).map(\.user.handle))
            let all = accounts.sorted { $0.followerCount > $1.followerCount }.map {
                OnboardingAccount(
                    handle: $0.user.handle, displayName: $0.user.displayName,
                    followingCount: $0.followingCount)
            }
            self.accounts = all
            self.choices = self.context.registry[.onboarding].choices(existingAccounts: Array(all.prefix(8)))
            self.context.navigator?.setNeedsDisplay()
        }
    }

    // MARK: Keys

    /// What onboarding's keys do.
    enum Command: Sendable {
        case next, previous, first, last, choose, confirm, create, back, nextMatch, previousMatch
        case continueAsMatch, submitPassword, stay
    }

    /// Onboarding's keys now: the one place to add one. While a handle is typed, every key not
    /// listed here is the handle field's.
    var keys: KeyTable<Command> {
        if let passwordFor {
            let submit = if case .create = passwordFor { "create" } else { "sign in" }
            return KeyTable([
                .note("type the password"),
                .init([.enter], .submitPassword, does: submit, footer: "enter"),
                .init([.escape], .back, does: "back", footer: "esc"),
            ])
        }
        if let confirming {
            return KeyTable([
                .note("continue as @\(confirming.handle)?"),
                .init([.enter, .character("y")], .confirm, label: "enter y", does: "yes", footer: "enter"),
                .init([.escape, .character("n")], .back, label: "esc n", does: "no", footer: "esc"),
            ])
        }
        if finding {
            return KeyTable([
                .note("type a handle or name"),
                .init(
                    [(.down, .nextMatch), (.up, .previousMatch)], label: "↑ ↓", does: "choose", footer: "↑↓"),
                .init([.enter], .continueAsMatch, does: "continue", footer: "enter"),
                .init([.escape], .back, does: "back", footer: "esc"),
            ])
        }
        guard !creating else {
            return KeyTable([
                .note("type a handle"), .init([.enter], .create, does: "create", footer: "enter"),
                .init([.escape], .back, does: "back", footer: "esc"),
            ])
        }
        return KeyTable(
            [
                .move(down: .next, up: .previous, does: "choose"),
                .init(
                    [(.character("g"), .first), (.home, .first), (.character("G"), .last), (.end, .last)],
                    label: "g G home end", does: "first / last", footer: nil),
                .init([.enter], .choose, does: "continue", footer: "enter"),
            ]
                + (onCancel == nil
                    ? [] : [.init([.escape], .stay, does: "stay signed in as you are", footer: "esc")]))
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else {
            guard capturesText else { return false }
            if let confirming {
                message = "enter continues as @\(confirming.handle); esc goes back"
                return true
            }
            if passwordFor != nil { return passwordField.handle(.key(key)) }
            if finding {
                let handled = findField.handle(.key(key))
                matchSelection = 0
                return handled
            }
            guard case .character(let typed) = key else { return handleField.handle(.key(key)) }
            switch Self.handleCharacter(typed, after: handleField.text) {
            case .accept(let character): return handleField.handle(.key(.character(character)))
            case .refuse(let why):
                message = why
                return true
            }
        }
        switch command {
        case .next: selection = min(selection + 1, max(rowCount - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .first: selection = 0
        case .last: selection = max(rowCount - 1, 0)
        case .choose:
            if selection == choices.count, findsOtherAccounts {
                finding = true
                return true
            }
            guard choices.indices.contains(selection) else { return true }
            switch choices[selection] {
            case .createAccount: creating = true
            case .continueAs(let account, _): confirming = account
            }
        case .confirm:
            guard let account = confirming else { return true }
            confirming = nil
            continueAs(account.handle)
        case .create:
            let handle = handleField.text
            guard handle.count >= 2 else {
                message = "a handle has 2 characters at least"
                return true
            }
            passwordField.text = ""
            passwordFor = .create(handle)
        case .submitPassword: submitPassword()
        case .stay: onCancel?()
        case .back:
            if confirming != nil {
                confirming = nil
                return true
            }
            if passwordFor != nil {
                passwordFor = nil
                passwordField.text = ""
                return true
            }
            creating = false
            finding = false
        case .nextMatch: matchSelection = min(matchSelection + 1, max(findMatches.count - 1, 0))
        case .previousMatch: matchSelection = max(matchSelection - 1, 0)
        case .continueAsMatch:
            let found = findMatches
            guard found.indices.contains(matchSelection) else {
                message =
                    UserMatch.query(findField.text).isEmpty
                    ? "type the handle or name of the account"
                    : "no account matches '\(findField.text)'"
                return true
            }
            continueAs(found[matchSelection].handle)
        }
        return true
    }

    /// A paste goes into the handle while one is typed, keeping to the handle's rule (capitals
    /// lowered, other characters left out, 24 at most); otherwise it is ignored.
    package func paste(_ text: String) -> Bool {
        guard capturesText, confirming == nil else { return confirming != nil }
        message = nil
        if passwordFor != nil { return passwordField.handle(.paste(text)) }
        if finding {
            matchSelection = 0
            return findField.handle(.paste(text.replacingOccurrences(of: "\n", with: " ")))
        }
        var kept = handleField.text
        for character in text {
            switch Self.handleCharacter(character, after: kept) {
            case .accept(let accepted): kept.append(accepted)
            case .refuse(let why): message = why
            }
        }
        let added = String(kept.dropFirst(handleField.text.count))
        return added.isEmpty || handleField.handle(.paste(added))
    }

    /// The most characters a handle may have (the server's rule: 2 to 24 of a-z, 0-9 and _).
    nonisolated static let handleLimit = 24

    /// What typing `character` after `handle` does to a handle.
    enum HandleKey: Equatable {
        /// The character goes in (a capital lowered).
        case accept(Character)
        /// Refused, with why.
        case refuse(String)
    }

    /// The server's handle rule, checked as the person types: a-z, 0-9 and _ (capitals are
    /// lowered), 24 characters at most.
    nonisolated static func handleCharacter(_ character: Character, after handle: String) -> HandleKey {
        let lowered = Character(character.lowercased())
        guard lowered.isASCII, lowered.isLetter || lowered.isNumber || lowered == "_" else {
            return .refuse("a handle uses a-z, 0-9 and _ only")
        }
        guard handle.count < handleLimit else {
            return .refuse("a handle has at most \(handleLimit) characters")
        }
        return .accept(lowered)
    }

    /// Continues as an existing account: a demo account signs in with the demo password at
    /// once; any other asks for its password first.
    private func continueAs(_ handle: String) {
        guard demoHandles.contains(handle) else {
            passwordField.text = ""
            passwordFor = .signIn(handle)
            return
        }
        signIn(handle, password: DemoAccounts.password)
    }

    private func submitPassword() {
        guard let passwordFor else { return }
        let password = passwordField.text
        switch passwordFor {
        case .create(let handle):
            guard password.count >= Self.passwordMinimum else {
                message =
                    "a password has \(Self.passwordMinimum) characters at least (\(password.count) so far)"
                return
            }
            create(handle: handle, password: password)
        case .signIn(let handle):
            guard !password.isEmpty else {
                message = "type the password of @\(handle)"
                return
            }
            signIn(handle, password: password)
        }
    }

    private func signIn(_ handle: String, password: String) {
        let client = context.client.signedIn(with: nil)
        context.tracker.run { [weak self] in
            do throws(TransportError) {
                let session = try await client.signIn(handle: handle, password: password).payload
                self?.finish(session)
            } catch {
                self?.passwordField.text = ""
                self?.message = "✕ " + Self.signInProblem(handle: handle, error, server: self?.serverAddress)
                self?.context.navigator?.setNeedsDisplay()
            }
        }
    }

    private func create(handle: String, password: String) {
        let client = context.client.signedIn(with: nil)
        let token = "account-\(handle)-\(UUID().uuidString.prefix(8))"
        context.tracker.run { [weak self] in
            do throws(TransportError) {
                let account = try await client.createAccount(
                    handle: handle, displayName: handle, password: password, clientToken: token)
                self?.finish(account.payload.session)
            } catch {
                self?.message = "✕ " + Self.createProblem(handle: handle, error, server: self?.serverAddress)
                if error.errorClass == .conflict { self?.passwordFor = nil }
                self?.context.navigator?.setNeedsDisplay()
            }
        }
    }

    private func finish(_ session: Session) {
        passwordField.text = ""
        passwordFor = nil
        onDone(session)
    }

    /// Why signing in as `handle` failed, in the person's terms: a wrong password, a demo account
    /// on a server not in demo mode, too many attempts, no server, or a server failing for now
    /// (with when to try again, when it said).
    nonisolated package static func signInProblem(
        handle: String, _ error: TransportError, server: String? = nil
    )
        -> String
    {
        switch (error.errorClass, error.serverCode) {
        case (.unauthorized, _):
            return "wrong password for @\(handle); try again"
        case (.forbidden, "demo_disabled"):
            return "@\(handle) is a demo account and this server is not in demo mode; start the server with "
                + "--demo, or create an account"
        case (.rateLimited, _):
            let wait = error.retryAfter.map { " in " + AgeFormatter.wait($0) } ?? " later"
            return "too many failed sign-ins for @\(handle); try again\(wait)"
        case (.notFound, _):
            return "there is no account @\(handle) on this server"
        case (.offline, _), (.timeout, _), (.requestTimeout, _):
            return "cannot sign in as @\(handle): \(unreachable(server)); try again when it is back"
        case (.serverError, _):
            return serverTrouble(error, toDo: "sign in as @\(handle)")
        default:
            return "could not sign in as @\(handle): \(error.errorClass)"
        }
    }

    /// Why creating `@handle` failed: the handle taken, no server, or a server failing for now;
    /// else the server's own account of it.
    nonisolated package static func createProblem(
        handle: String, _ error: TransportError, server: String? = nil
    )
        -> String
    {
        switch error.errorClass {
        case .conflict:
            return "could not create @\(handle): that handle is taken"
        case .offline, .timeout, .requestTimeout:
            return "cannot create @\(handle): \(unreachable(server)); try again when it is back"
        case .serverError:
            return serverTrouble(error, toDo: "create @\(handle)")
        default:
            return "could not create @\(handle): \(error.detail)"
        }
    }

    /// "the server at http://… cannot be reached", naming it where the app talks to one over HTTP.
    nonisolated private static func unreachable(_ server: String?) -> String {
        "the server\(server.map { " at " + $0 } ?? "") cannot be reached"
    }

    /// The server this app talks to over HTTP (`--server`), nil on the embedded backend.
    private var serverAddress: String? {
        context.network.serverAddress
    }

    /// A 5xx in the person's terms: whose fault, and when to try again (what to do first: the
    /// status line cuts what does not fit).
    nonisolated private static func serverTrouble(_ error: TransportError, toDo: String) -> String {
        let status = error.status ?? 500
        let what = status == 503 ? "is unavailable" : "had a problem"
        let wait = error.retryAfter.map { " in " + AgeFormatter.wait($0) } ?? " later"
        return "the server \(what) (\(status)); try again\(wait) to \(toDo)"
    }

    /// How many lines the part under the list takes now: the confirmation, the find field and
    /// its matches, the handle field or the password lines, each after a blank line.
    private var linesUnderTheList: Int {
        if passwordFor != nil { return 4 }
        if confirming != nil { return 3 }
        if finding { return 2 + max(min(findMatches.count, 6), 1) }
        return creating ? 2 : 0
    }

    /// The welcome screen: the app's name and tagline, the socket's title, the list (scrolled to
    /// keep the selected row in view, "↑ n more" and "↓ n more" where rows are cut off), and what
    /// the selected row asks for under it. On a short screen the tagline and blank lines go first,
    /// so the list keeps its selected row and the field being typed in stays on screen.
    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        drawnWidth = rect.width
        // A message too long for the status line is drawn whole at the bottom, wrapped.
        guard let message, message.displayWidth > rect.width else {
            return drawScreen(into: &buffer, in: rect)
        }
        let lines = TextLayout.wrap(message, width: rect.width - 4).prefix(max(rect.height / 3, 1))
        let top = rect.maxY - lines.count
        for (offset, line) in lines.enumerated() {
            buffer.putTruncated(
                StyledLine(
                    line, style: message.hasPrefix("✕") ? context.style.failure : context.style.secondary),
                in: Rect(x: rect.x + 2, y: top + offset, width: rect.width - 4, height: 1))
        }
        return drawScreen(
            into: &buffer,
            in: Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - lines.count - 1))
    }

    /// The width the screen was last drawn at: a message wider than it is drawn in the screen.
    private var drawnWidth = 80

    private func drawScreen(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let branding = context.registry[.branding]
        let width = rect.width - 4
        let title = TextLayout.wrap(
            StyledLine(context.registry[.onboarding].title, style: style.strong), width: width)
        let under = linesUnderTheList
        // Roomy: a blank line, the name, the tagline, a blank, the title, a blank. Short: the
        // name, the title's first line, a blank.
        let roomy = rect.height - under - (5 + title.count) >= min(rowCount, 4) + 1
        var y = rect.y + (roomy ? 1 : 0)
        func put(_ line: StyledLine, indent: Int = 2) {
            guard y < rect.maxY else { return }
            buffer.putTruncated(
                line, in: Rect(x: rect.x + indent, y: y, width: rect.width - indent - 2, height: 1))
            y += 1
        }
        put(StyledLine(branding.logoGlyph + " " + branding.appName, style: style.accent))
        if roomy {
            put(StyledLine(branding.tagline, style: style.secondary))
            y += 1
            for line in title { put(line) }
        } else if let first = title.first {
            put(
                title.count > 1
                    ? TextLayout.truncate(first, width: width - 1) + StyledLine("…", style: style.strong)
                    : first)
        }
        y += 1
        if loading {
            put(StyledLine("Loading accounts…", style: style.secondary))
        }
        let shown = window.rows(count: rowCount, selection: selection, room: max(rect.maxY - y - under, 1))
        if shown.lowerBound > 0 { put(StyledLine("  ↑ \(shown.lowerBound) more", style: style.secondary)) }
        for index in shown {
            put(row(index, width: width))
        }
        if shown.upperBound < rowCount {
            put(StyledLine("  ↓ \(rowCount - shown.upperBound) more", style: style.secondary))
        }
        if let confirming {
            y += 1
            put(
                TextLayout.truncate(
                    StyledLine("Continue as \(confirming.displayName)", style: style.strong),
                    keeping: StyledLine(" (@\(confirming.handle))?", style: style.strong), width: width))
            put(StyledLine("enter yes · esc no", style: style.secondary))
            return nil
        }
        if let passwordFor { return drawPassword(for: passwordFor, into: &buffer, at: y + 1, in: rect) }
        if finding {
            y += 1
            buffer.put("Find: ", style: style.text, x: rect.x + 2, y: y, clip: rect)
            let cursor = findField.draw(
                into: &buffer, in: Rect(x: rect.x + 8, y: y, width: max(rect.width - 11, 4), height: 1))
            y += 1
            let found = findMatches
            if found.isEmpty, !findField.text.isEmpty {
                put(StyledLine("  no account matches", style: style.secondary))
            }
            for (index, account) in found.prefix(6).enumerated() {
                var line = StyledLine(index == matchSelection ? "▌ " : "  ", style: style.accent)
                line.append("@\(account.handle)", style: index == matchSelection ? style.strong : style.text)
                line.append("  \(account.displayName)", style: style.secondary)
                put(line, indent: 4)
            }
            return cursor
        }
        guard creating else { return nil }
        y += 1
        buffer.put("Handle: @", style: style.text, x: rect.x + 2, y: y, clip: rect)
        return handleField.draw(
            into: &buffer, in: Rect(x: rect.x + 11, y: y, width: max(rect.width - 14, 4), height: 1))
    }

    /// Row `index` of the list, `width` columns at most: a socket's choice, or the last row,
    /// signing in to any account.
    private func row(_ index: Int, width: Int) -> StyledLine {
        let style = context.style
        let selected = index == selection
        let labelStyle = selected ? style.strong : style.text
        var line = StyledLine(selected ? "▌ " : "  ", style: style.accent)
        guard choices.indices.contains(index) else {
            line.append(signInLabel, style: labelStyle)
            return line
        }
        switch choices[index] {
        case .createAccount:
            line.append("Create a new account", style: labelStyle)
        case .continueAs(let account, let importsFollows):
            // A long name is cut so the handle shows whole; what it brings comes after.
            line.append("Continue as \(account.displayName)", style: labelStyle)
            line = TextLayout.truncate(
                line, keeping: StyledLine(" (@\(account.handle))", style: labelStyle), width: width)
            if importsFollows {
                let brings = StyledLine(
                    " · brings name, avatar and \(account.followingCount) follows", style: labelStyle)
                line.append(TextLayout.truncate(brings, width: width - line.displayWidth))
            }
        }
        return line
    }

    /// The password line, masked (one `•` per character), and what it still needs.
    private func drawPassword(
        for purpose: PasswordPurpose, into buffer: inout ScreenBuffer, at y: Int, in rect: Rect
    )
        -> Point?
    {
        let style = context.style
        let words = if case .create = purpose { "New account" } else { "Sign in as" }
        // On a narrow screen the words are cut, never the handle.
        buffer.putTruncated(
            TextLayout.truncate(
                StyledLine(words, style: style.strong),
                keeping: StyledLine(" @\(purpose.handle)", style: style.strong), width: rect.width - 4),
            in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
        let label = "Password: "
        buffer.put(label, style: style.text, x: rect.x + 2, y: y + 1, clip: rect)
        let fieldX = rect.x + 2 + label.count
        let width = max(rect.width - fieldX - 2, 4)
        let count = passwordField.characterCount
        let shown = min(count, width - 1)
        buffer.put(String(repeating: "•", count: shown), style: style.text, x: fieldX, y: y + 1, clip: rect)
        if case .create = purpose {
            let hint =
                count >= Self.passwordMinimum
                ? "✓ \(count) characters"
                : "\(count) of \(Self.passwordMinimum) characters at least"
            buffer.putTruncated(
                StyledLine(hint, style: style.secondary),
                in: Rect(x: rect.x + 2, y: y + 2, width: rect.width - 4, height: 1))
        }
        return Point(x: fieldX + shown, y: y + 1)
    }

    package func resize(width: Int, height: Int) {}
}
