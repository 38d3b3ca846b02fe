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
@MainActor
package final class OnboardingScreen: AppScreen {
    private let context: AppContext
    private let onDone: @MainActor (Session) -> Void
    private var choices: [OnboardingChoice] = []
    private var selection = 0
    private var loading = false
    private var creating = false
    private let handleField = TextField(placeholder: "handle (a-z, 0-9, _)", mode: .singleLine)
    /// Every account on the backend, for finding one by handle or name.
    private var accounts: [OnboardingAccount] = []
    /// Whether the person is typing to find an account to continue as.
    private var finding = false
    private let findField = TextField(placeholder: "a handle or a name", mode: .singleLine)
    private var matchSelection = 0
    private var message: String?

    /// Makes the screen; `onDone` runs with the signed-in session.
    package init(context: AppContext, onDone: @escaping @MainActor (Session) -> Void) {
        self.context = context
        self.onDone = onDone
    }

    package var title: String { "Welcome" }

    package var capturesText: Bool { creating || finding }

    package var status: String? { message }

    /// The choices offered now (for tests).
    package var offered: [OnboardingChoice] { choices }

    /// Whether the welcome screen offers to find any account by typing: when the `onboarding`
    /// socket lets people continue as an existing account, the few it lists are the most
    /// followed, and the rest are found by handle or name.
    package var findsOtherAccounts: Bool {
        choices.contains { if case .continueAs = $0 { true } else { false } }
    }

    /// The rows of the list: the socket's choices, then "another account" when offered.
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

    /// The accounts matching what is typed now (for tests).
    package var findMatches: [OnboardingAccount] { Self.matches(findField.text, in: accounts) }

    package func appear() {
        guard choices.isEmpty, !loading else { return }
        loading = true
        let client = context.client.signedIn(as: nil)
        context.tracker.run { [weak self] in
            let accounts = (try? await client.accounts().payload.accounts) ?? []
            guard let self else { return }
            self.loading = false
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
        case next, previous, choose, create, back, nextMatch, previousMatch, continueAsMatch
    }

    /// Onboarding's keys now: the one place to add one. While a handle is typed, every key not
    /// listed here is the handle field's.
    var keys: KeyTable<Command> {
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
        return KeyTable([
            .move(down: .next, up: .previous, does: "choose"),
            .init([.enter], .choose, does: "continue", footer: "enter"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else {
            guard capturesText else { return false }
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
        case .choose:
            if selection == choices.count, findsOtherAccounts {
                finding = true
                return true
            }
            guard choices.indices.contains(selection) else { return true }
            switch choices[selection] {
            case .createAccount: creating = true
            case .continueAs(let account, _): continueAs(account.handle)
            }
        case .create: create(handle: handleField.text)
        case .back:
            creating = false
            finding = false
        case .nextMatch: matchSelection = min(matchSelection + 1, max(findMatches.count - 1, 0))
        case .previousMatch: matchSelection = max(matchSelection - 1, 0)
        case .continueAsMatch:
            let found = findMatches
            guard found.indices.contains(matchSelection) else {
                message = "no account matches '\(findField.text)'"
                return true
            }
            continueAs(found[matchSelection].handle)
        }
        return true
    }

    /// A paste goes into the handle while one is typed, keeping to the handle's rule (capitals
    /// lowered, other characters left out, 24 at most); otherwise it is ignored.
    package func paste(_ text: String) -> Bool {
        guard capturesText else { return false }
        message = nil
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

    private func continueAs(_ handle: String) {
        let client = context.client.signedIn(as: nil)
        context.tracker.run { [weak self] in
            do throws(TransportError) {
                let session = try await client.signIn(handle: handle).payload
                self?.onDone(session)
            } catch {
                self?.message = "✕ could not sign in as @\(handle): \(error.errorClass)"
                self?.context.navigator?.setNeedsDisplay()
            }
        }
    }

    private func create(handle: String) {
        let client = context.client.signedIn(as: nil)
        let token = "account-\(handle)-\(UUID().uuidString.prefix(8))"
        context.tracker.run { [weak self] in
            do throws(TransportError) {
                let account = try await client.createAccount(
                    handle: handle, displayName: handle, clientToken: token)
                self?.onDone(Session(user: account.payload.user, token: account.payload.token))
            } catch {
                let reason = error.errorClass == .conflict ? "that handle is taken" : "\(error.detail)"
                self?.message = "✕ could not create @\(handle): \(reason)"
                self?.context.navigator?.setNeedsDisplay()
            }
        }
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let branding = context.registry[.branding]
        var y = rect.y + 1
        buffer.putTruncated(
            StyledLine(branding.logoGlyph + " " + branding.appName, style: style.accent),
            in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
        y += 1
        buffer.putTruncated(
            StyledLine(branding.tagline, style: style.secondary),
            in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
        y += 2
        buffer.putTruncated(
            StyledLine(context.registry[.onboarding].title, style: style.strong),
            in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
        y += 2
        if loading {
            buffer.put("Loading accounts…", style: style.secondary, x: rect.x + 2, y: y, clip: rect)
        }
        for (index, choice) in choices.enumerated() where y < rect.maxY - 2 {
            let label: String
            switch choice {
            case .createAccount:
                label = "Create a new account"
            case .continueAs(let account, let importsFollows):
                label =
                    "Continue as \(account.displayName) (@\(account.handle))"
                    + (importsFollows ? " · brings name, avatar and \(account.followingCount) follows" : "")
            }
            var line = StyledLine(index == selection ? "▌ " : "  ", style: style.accent)
            line.append(label, style: index == selection ? style.strong : style.text)
            buffer.putTruncated(line, in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
            y += 1
        }
        if findsOtherAccounts, y < rect.maxY - 2 {
            let selected = selection == choices.count
            var line = StyledLine(selected ? "▌ " : "  ", style: style.accent)
            line.append(
                "Continue as another account (type its handle or name)",
                style: selected ? style.strong : style.text)
            buffer.putTruncated(line, in: Rect(x: rect.x + 2, y: y, width: rect.width - 4, height: 1))
            y += 1
        }
        if finding {
            y += 1
            buffer.put("Find: ", style: style.text, x: rect.x + 2, y: y, clip: rect)
            let cursor = findField.draw(
                into: &buffer, in: Rect(x: rect.x + 8, y: y, width: max(rect.width - 11, 4), height: 1))
            y += 1
            let found = findMatches
            if found.isEmpty, !findField.text.isEmpty {
                buffer.put("  no account matches", style: style.secondary, x: rect.x + 2, y: y, clip: rect)
            }
            for (index, account) in found.enumerated() where y < rect.maxY {
                var line = StyledLine(index == matchSelection ? "▌ " : "  ", style: style.accent)
                line.append("@\(account.handle)", style: index == matchSelection ? style.strong : style.text)
                line.append("  \(account.displayName)", style: style.secondary)
                buffer.putTruncated(line, in: Rect(x: rect.x + 4, y: y, width: rect.width - 6, height: 1))
                y += 1
            }
            return cursor
        }
        guard creating else { return nil }
        y += 1
        buffer.put("Handle: @", style: style.text, x: rect.x + 2, y: y, clip: rect)
        return handleField.draw(
            into: &buffer, in: Rect(x: rect.x + 11, y: y, width: max(rect.width - 14, 4), height: 1))
    }

    package func resize(width: Int, height: Int) {}
}
