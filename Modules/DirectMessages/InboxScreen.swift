import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// The inbox: the viewer's conversations, the one with the newest message first, each row with
/// who it is with, the last message and when, and how many are unread. Enter opens one, `/`
/// starts one with someone found by handle or name.
///
/// Opened to share a post (`s` on a post), the same list picks where it goes: enter sends the
/// post there as a card and goes back.
///
/// ```
/// ▌● Grace Baker: "see you at the market" · 2m   2
///   Ada and Barbara: you: "done" · 1h
/// ```
@MainActor
package final class InboxScreen: AppScreen {
    private let inbox: DirectInbox
    private var context: AppContext { inbox.context }
    /// The post to share, when the inbox was opened to pick where it goes.
    private let sharing: Media?
    private var selection = 0
    private var top = 0
    private var width: Int
    private var height: Int
    private var message: String?

    /// Makes the inbox for a content area of `width` × `height`; with `sharing`, it picks the
    /// conversation to send that post to.
    package init(inbox: DirectInbox, sharing: Media? = nil, width: Int, height: Int) {
        self.inbox = inbox
        self.sharing = sharing
        self.width = width
        self.height = height
    }

    package var title: String {
        sharing == nil ? inbox.direct.inboxTitle : "Send to…"
    }

    package var status: String? {
        if let message { return message }
        if inbox.loading && !inbox.loaded { return "loading…" }
        return inbox.problem
    }

    /// The conversations listed now (for tests).
    package var conversations: [Conversation] { inbox.conversations }

    package func appear() {
        inbox.observe(self) { [weak self] in self?.listChanged() }
        inbox.reload()
    }

    private func listChanged() {
        selection = min(selection, max(inbox.conversations.count - 1, 0))
    }

    // MARK: Keys

    /// What the inbox's keys do.
    enum Command: Sendable {
        case next, previous, open, start, refresh
        case list(ListKeys.Command)
    }

    /// The inbox's keys: the one place to add one.
    var keys: KeyTable<Command> {
        KeyTable(
            [
                .move(down: .next, up: .previous)
            ] + ListKeys.rows(ends: "first / last", Command.list) + [
                .init(
                    [.enter], .open, does: sharing == nil ? "open the conversation" : "send the post there",
                    footer: "enter", footerDoes: sharing == nil ? "open" : "send"),
                .init([.character("/")], .start, does: "message someone new", footer: "/", footerDoes: "new"),
                .init([.character("r")], .refresh, does: "refresh"),
            ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else { return false }
        let count = inbox.conversations.count
        switch command {
        case .next: selection = min(selection + 1, max(count - 1, 0))
        case .previous: selection = max(selection - 1, 0)
        case .list(let list):
            selection = ListKeys.selection(after: list, from: selection, count: count, height: height)
        case .open:
            guard inbox.conversations.indices.contains(selection) else { return true }
            open(inbox.conversations[selection])
        case .start: startConversation()
        case .refresh: inbox.reload()
        }
        return true
    }

    /// Opens `conversation`, or sends the shared post there.
    private func open(_ conversation: Conversation) {
        guard let sharing else {
            context.navigator?.push(
                ConversationScreen(inbox: inbox, conversation: conversation, width: width, height: height))
            return
        }
        let name = inbox.title(of: conversation)
        context.actions?.send(
            text: "", photos: [], to: conversation.id, sharing: sharing.id, consumingDraft: nil
        ) {
            [weak context] problem in
            if let problem { context?.navigator?.showMessage("✕ not sent: \(problem)") }
        }
        context.navigator?.pop()
        context.navigator?.showMessage("sending the post to \(name)…")
    }

    /// Finds someone by handle or name, then opens the conversation with them (made on the
    /// server the first time).
    private func startConversation() {
        let pick = PeopleScreen.Pick(title: "New message", does: "message them") { [weak self] user in
            self?.conversation(with: user)
        }
        context.navigator?.push(PeopleScreen(context: context, width: width, height: height, pick: pick))
    }

    private func conversation(with user: User) {
        let client = context.client
        message = "opening the conversation with @\(user.handle)…"
        context.tracker.run { [weak self] in
            let result: Result<Conversation, TransportError>
            do throws(TransportError) {
                result = .success(try await client.startConversation(with: [user.id]).payload)
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.message = nil
            switch result {
            case .success(let conversation):
                self.inbox.update(conversation)
                self.context.navigator?.pop()
                self.selection = self.inbox.conversations.firstIndex { $0.id == conversation.id } ?? 0
                self.open(conversation)
            case .failure(let error):
                self.context.navigator?.showMessage(
                    "✕ " + FeedScreen.describe(error, doing: "start a conversation with @\(user.handle)"))
            }
            self.context.navigator?.setNeedsDisplay()
        }
    }

    // MARK: Drawing

    /// A conversation's row, `width` columns at most: the unread mark, who it is with, the last
    /// message (this device's unsent one when there is one), when, and the unread count; a
    /// narrow row cuts the message first.
    func row(_ conversation: Conversation, selected: Bool, width: Int) -> StyledLine {
        let style = context.style
        let unread = conversation.unreadCount > 0
        var line = StyledLine(selected ? "▌" : " ", style: style.accent)
        line.append(unread ? "● " : "  ", style: style.accent)
        line.append(inbox.title(of: conversation), style: unread ? style.strong : style.text)
        var tail = StyledLine()
        var quote = ""
        let local = context.mutations.mergedConversation(conversation.id, page: nil).messages.last
        if let local, local.status != .server {
            quote = ": \(inbox.direct.ownMark): \(Self.quoted(local.message))"
            if case .failed = local.status {
                tail.append(" · ✕ not sent", style: style.failure)
            } else {
                tail.append(" · sending…", style: style.pending)
            }
        } else if let last = Self.newest(conversation.lastMessage, local?.message) {
            // The server's last message, or one sent here since the list was read (confirmed,
            // not in the list yet).
            let who = last.sender.id == context.viewer?.id ? inbox.direct.ownMark + ": " : ""
            quote = ": \(who)\(Self.quoted(last))"
            tail.append(" · " + context.age(of: last.createdAt), style: style.secondary)
        } else {
            tail.append(" · no messages yet", style: style.secondary)
        }
        if unread { tail.append("  \(conversation.unreadCount)", style: style.accent) }
        let room = width - line.displayWidth - tail.displayWidth
        if !quote.isEmpty, room >= 4 {
            line.append(TextLayout.truncate(StyledLine(quote, style: style.secondary), width: room))
        }
        return TextLayout.truncate(line, keeping: tail, width: width)
    }

    /// The newer of two messages the server holds (by its time, then by its order of ids: two
    /// messages of one millisecond), either may be missing.
    nonisolated static func newest(_ a: Message?, _ b: Message?) -> Message? {
        guard let a, let b else { return a ?? b }
        if a.createdAt != b.createdAt { return b.createdAt > a.createdAt ? b : a }
        return ConversationScreen.number(b.id) > ConversationScreen.number(a.id) ? b : a
    }

    /// The first line of a message in quotes, or what it carries when it has no text (`shared a
    /// post`, `a photo`), unquoted.
    nonisolated static func quoted(_ message: Message) -> String {
        message.text.isEmpty ? firstLine(of: message) : "\"" + firstLine(of: message) + "\""
    }

    /// The first line of a message, or what it carries when it has no text.
    nonisolated static func firstLine(of message: Message) -> String {
        if let line = message.text.split(whereSeparator: \.isNewline).first { return String(line) }
        if message.sharedPostID != nil { return "shared a post" }
        if !message.attachments.isEmpty {
            return message.attachments.count == 1 ? "a photo" : "\(message.attachments.count) photos"
        }
        return ""
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        width = rect.width
        height = rect.height
        let conversations = inbox.conversations
        if conversations.isEmpty {
            let words =
                inbox.known
                ? "No conversations yet. Press / to message someone."
                : inbox.problem == nil
                    ? "Loading…" : "Nothing saved here yet: your conversations show once the server answers."
            buffer.put(words, style: style.secondary, x: rect.x + 2, y: rect.y + 1, clip: rect)
            return nil
        }
        selection = min(selection, conversations.count - 1)
        if selection < top { top = selection }
        if selection >= top + rect.height { top = selection - rect.height + 1 }
        for (offset, conversation) in conversations.dropFirst(top).prefix(rect.height).enumerated() {
            buffer.putTruncated(
                row(conversation, selected: top + offset == selection, width: rect.width),
                in: Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: 1))
        }
        return nil
    }

    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package func dataDidChange() {}
}
