import Features
import Foundation
import MediaModel
import Mutations
import ServerAPI
import Sockets
import TerminalUI
import Wire

/// One conversation: its messages bottom-up, the newest just above the composer, the viewer's
/// own marked with the `direct` provider's mark; a message still going says "sending…", a
/// failed one says why and is retried (`r`) or deleted (`x`) in place.
///
/// The composer has the focus: keys are text, enter sends, a paste keeps its lines, ctrl-o adds a
/// photo from disk (ctrl-x removes the last), and the unsent text and photos are kept per
/// conversation across restarts. ↑ on the composer's first line (or
/// tab) moves the focus to the messages, where ↑ ↓ choose one, enter opens the post it shares
/// (or the sender's profile), and ↓ past the newest (or tab) goes back to typing. New messages
/// arrive while it is open (the event stream says so), and what is shown is marked read.
///
/// Messages come from the server's pages merged with the ones sent from this device
/// (`MutationManager.mergedConversation`), so a refresh never hides a message still going, and
/// a confirmed one keeps its row. Under the viewer's newest message that every other member has
/// read, "seen".
@MainActor
package final class ConversationScreen: AppScreen, PhotoPickerTarget {
    private let inbox: DirectInbox
    private var context: AppContext { inbox.context }
    /// The conversation as last read (members, read position).
    private var conversation: Conversation
    /// The server's messages read so far, oldest first.
    private var server: [Message] = []
    private var olderCursor: String?
    private var newerCursor: String?
    /// What is shown: the server's messages merged with this device's.
    private var merged: [MergedMessage] = []
    /// The viewer's newest message every other member has read: "seen" goes under it.
    private var seenIndex: Int?
    private let field: TextField
    /// The unsent text, kept across restarts.
    private let drafts: DraftStore?
    private var draftID = DraftStore.Saved.newID()
    /// The photos picked from disk for the next message, in order.
    private var files: [PickedPhoto] = []
    /// The folder the photo picker was last in.
    private var pickerDirectory: String?
    /// Whether keys go to the composer (else they move through the messages).
    private var typing = true
    /// The message chosen while the focus is on the messages.
    private var selection = 0
    private var loading = false
    private var loadingOlder = false
    private var fetchingNewer = false
    private var fetchAgain = false
    private var message: String?
    private var width: Int
    private var height: Int
    /// Whether the first page was read.
    private var started = false

    /// The most lines the composer grows to.
    package static let composerLines = 4
    /// The most columns a photo in a message takes.
    package static let photoColumns = 32
    /// The most lines a photo in a message takes.
    package static let photoLines = 8

    /// Makes the screen of `conversation` for a content area of `width` × `height`.
    package init(inbox: DirectInbox, conversation: Conversation, width: Int, height: Int) {
        self.inbox = inbox
        self.conversation = conversation
        self.width = width
        self.height = height
        field = TextField(
            placeholder: "Message…", mode: .wrapped(maxLines: Self.composerLines),
            limit: MessageLimits.textCharacters)
        let context = inbox.context
        drafts = context.dataDirectory.map { directory in
            // Each account's own folder: a conversation's draft typed as one member is never
            // shown to another signed in on this device. One kept before (in the folder itself)
            // becomes the first account's that opens the conversation.
            let shared = (directory as NSString).appendingPathComponent("message-drafts")
            let folder = (shared as NSString).appendingPathComponent(
                DraftStore.accountName(context.viewer?.handle ?? context.client.credentials?.handle ?? ""))
            let name = Self.draftFileName(conversation.id)
            let manager = context.mutations
            let path = (folder as NSString).appendingPathComponent(name)
            return context.draftStore(at: path) {
                DraftStore(path: path, takingOver: (shared as NSString).appendingPathComponent(name)) {
                    manager.isDraftConsumed($0)
                }
            }
        }
        if let page = inbox.cache()?.messages(in: conversation.id) {
            // What was last read shows at once, offline too, until the server answers.
            self.conversation = page.conversation
            server = page.messages
            olderCursor = page.olderCursor
            newerCursor = page.newerCursor
        }
        if let saved = drafts?.load() {
            draftID = saved.id
            field.text = saved.text
            files = saved.files
        }
        context.observeEvents(self) { [weak self] event in self?.eventArrived(event) }
    }

    /// The draft file of a conversation (named as its cache file is).
    nonisolated static func draftFileName(_ id: ConversationID) -> String {
        DirectCache.fileName(id)
    }

    package var title: String { inbox.title(of: conversation) }

    package var status: String? {
        if let message { return message }
        if loading && server.isEmpty { return "loading…" }
        return nil
    }

    package var capturesText: Bool { typing }

    /// The rows shown, oldest first (for tests).
    package var messages: [MergedMessage] { merged }

    /// The text being typed (for tests).
    package var text: String { field.text }

    package func appear() {
        if !started {
            started = true
            loadNewest()
        } else {
            fetchNewer()
        }
    }

    package func dataDidChange() {
        remerge()
    }

    // MARK: Loading

    private func loadNewest() {
        loading = true
        let client = context.client
        let id = conversation.id
        context.tracker.run { [weak self] in
            let result: Result<MessagePage, TransportError>
            do throws(TransportError) {
                result = .success(try await client.messages(in: id).payload)
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.loading = false
            switch result {
            case .success(let page):
                self.conversation = page.conversation
                self.server = page.messages
                self.olderCursor = page.olderCursor
                self.newerCursor = page.newerCursor
                self.inbox.cache()?.save(messages: page)
                self.markRead()
            case .failure(let error):
                self.message = FeedScreen.describe(error, doing: "load the messages")
            }
            self.remerge()
        }
        remerge()
    }

    /// Reads the messages that came since the last read, if any.
    private func fetchNewer() {
        guard let cursor = newerCursor else { return loadNewest() }
        guard !fetchingNewer else {
            fetchAgain = true
            return
        }
        fetchingNewer = true
        let client = context.client
        let id = conversation.id
        context.tracker.run { [weak self] in
            let page = try? await client.messages(in: id, after: cursor).payload
            guard let self else { return }
            self.fetchingNewer = false
            if let page {
                let known = Set(self.server.map(\.id))
                self.server += page.messages.filter { !known.contains($0.id) }
                self.newerCursor = page.newerCursor
                self.conversation = page.conversation
                if !page.messages.isEmpty {
                    self.inbox.cache()?.save(
                        messages: MessagePage(
                            conversation: page.conversation, messages: self.server,
                            olderCursor: self.olderCursor,
                            newerCursor: page.newerCursor))
                    self.markRead()
                }
            }
            self.remerge()
            if self.fetchAgain {
                self.fetchAgain = false
                self.fetchNewer()
            }
        }
    }

    private func loadOlder() {
        guard let cursor = olderCursor, !loadingOlder else { return }
        loadingOlder = true
        let client = context.client
        let id = conversation.id
        context.tracker.run { [weak self] in
            let page = try? await client.messages(in: id, before: cursor).payload
            guard let self else { return }
            self.loadingOlder = false
            if let page {
                let known = Set(self.server.map(\.id))
                let older = page.messages.filter { !known.contains($0.id) }
                self.server = older + self.server
                self.olderCursor = page.olderCursor
            }
            self.remerge()
        }
    }

    /// Tells the server the newest message shown is read, and the inbox at once.
    private func markRead() {
        guard let last = server.last else { return }
        inbox.markedRead(conversation.id)
        guard conversation.readUpTo != last.id else { return }
        conversation.readUpTo = last.id
        let client = context.client
        let id = conversation.id
        context.tracker.run { [weak self] in
            // A read of the inbox that crossed this one may still count these: once the server
            // has the position, they count as read again.
            guard (try? await client.markRead(id, upTo: last.id)) != nil else { return }
            self?.inbox.markedRead(id)
        }
    }

    private func eventArrived(_ event: ActivityEvent) {
        guard case .message = event.kind, event.message?.conversationID == conversation.id else { return }
        fetchNewer()
    }

    private func remerge() {
        let page = newerCursor.map {
            MessagePage(
                conversation: conversation, messages: server, olderCursor: olderCursor, newerCursor: $0)
        }
        let wasAtNewest = selection >= merged.count - 1
        let chosen = merged.indices.contains(selection) ? merged[selection].id : nil
        merged = context.mutations.mergedConversation(conversation.id, page: page).messages
        let seen = conversation.seenUpTo.map(Self.number)
        seenIndex = seen.flatMap { seen in
            merged.lastIndex { isMine($0) && $0.status == .server && Self.number($0.message.id) <= seen }
        }
        if typing || wasAtNewest {
            selection = max(merged.count - 1, 0)
        } else if let chosen, let index = merged.firstIndex(where: { $0.id == chosen }) {
            // The chosen message stays chosen where older messages came in above it.
            selection = index
        }
        selection = min(selection, max(merged.count - 1, 0))
        context.navigator?.setNeedsDisplay()
    }

    // MARK: Keys

    /// What the conversation's keys do.
    enum Command: Sendable {
        case send, back, toMessages, toComposer, next, previous, open, retry, delete, addPhoto, removePhoto
    }

    /// The keys while typing: every key not listed is the composer's.
    private var typingKeys: KeyTable<Command> {
        KeyTable([
            .note("type a message"),
            .init([.enter], .send, does: "send", footer: "enter"),
            .init(
                [.control("o")], .addPhoto, does: "add a photo from disk", footer: "^o", footerDoes: "photo"),
            .init([.control("x")], .removePhoto, does: "remove the last photo added"),
            .init(
                [.tab], .toMessages, does: "choose a message (↑ on the first line too)", footer: "tab",
                footerDoes: "messages"),
            .init([.escape], .back, does: "back (the text is kept)", footer: "esc", footerDoes: "back"),
        ])
    }

    /// The keys while choosing a message.
    private var messageKeys: KeyTable<Command> {
        KeyTable([
            .move(down: .next, up: .previous),
            .init(
                [.enter], .open, does: "open the shared post, or the sender", footer: "enter",
                footerDoes: "open"),
            .init([.character("r")], .retry, does: "retry a message not sent", footer: "r"),
            .init([.character("x")], .delete, does: "delete a message not sent", footer: "x"),
            .init(
                [.tab, .character("i")], .toComposer, does: "type a message", footer: "tab",
                footerDoes: "type"),
        ])
    }

    private var keys: KeyTable<Command> { typing ? typingKeys : messageKeys }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else {
            guard typing else { return false }
            if field.handle(.key(key)) {
                saveDraft()
                return true
            }
            if key == .up {
                choose()
                return true
            }
            // Backspace on an empty composer stays here: only esc leaves.
            return key == .backspace
        }
        switch command {
        case .send: send()
        case .back: context.navigator?.pop()
        case .toMessages: choose()
        case .toComposer: typing = true
        case .addPhoto: openPicker()
        case .removePhoto:
            guard !files.isEmpty else {
                message = "no photo to remove"
                return true
            }
            files.removeLast()
            saveDraft()
        case .next:
            if selection >= merged.count - 1 {
                typing = true
            } else {
                selection += 1
            }
        case .previous:
            if selection > 0 {
                selection -= 1
            } else {
                loadOlder()
            }
        case .open: openSelected()
        case .retry: changeSelected(retry: true)
        case .delete: changeSelected(retry: false)
        }
        return true
    }

    package func paste(_ text: String) -> Bool {
        guard typing else { return false }
        field.handle(.paste(text))
        saveDraft()
        return true
    }

    private func choose() {
        guard !merged.isEmpty else { return }
        typing = false
        selection = merged.count - 1
    }

    private func saveDraft() {
        drafts?.save(DraftStore.Saved(id: draftID, text: field.text, files: files))
    }

    // MARK: Photos

    package var pickedPaths: [String] { files.map(\.path) }

    /// Adds the photo file at `path` (absolute) after the others, once its header shows a JPEG or
    /// PNG within the decoder's limits, up to a message's limit.
    package func attach(path: String) throws(PhotoFileError) {
        guard !files.contains(where: { $0.path == path }) else {
            throw PhotoFileError(path: path, reason: "it is attached already")
        }
        guard files.count < MessageLimits.attachmentsPerMessage else {
            throw PhotoFileError(
                path: path, reason: "a message takes at most \(MessageLimits.attachmentsPerMessage) photos")
        }
        _ = try PhotoFile.check(path)
        files.append(PickedPhoto(path: path))
        saveDraft()
    }

    package func pickerDidOpen(_ directory: String) {
        pickerDirectory = directory
    }

    private func openPicker() {
        context.navigator?.push(
            PhotoPickerScreen(
                context: context, directory: pickerDirectory ?? context.photosDirectory,
                home: ProcessInfo.processInfo.environment["HOME"], target: self))
    }

    /// Sends what is typed: it shows at once at the bottom, "sending…", and the composer empties.
    private func send() {
        let text = field.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty || !files.isEmpty else { return }
        guard let actions = context.actions else { return }
        let draft = draftID
        let drafts = drafts
        let photos = files
        drafts?.save(DraftStore.Saved(id: draft, text: field.text, files: photos))
        let sent = actions.send(
            text: text, photos: photos, to: conversation.id, sharing: nil, consumingDraft: draft
        ) { [weak self] problem in
            guard let problem else {
                drafts?.remove()
                return
            }
            // Nothing was sent: the text and photos come back to the composer, and stay in the
            // draft.
            guard let self else { return }
            if self.field.text.isEmpty && self.files.isEmpty {
                self.field.text = text
                self.files = photos
                self.draftID = draft
            }
            self.message = "✕ not sent: \(problem)"
            self.context.navigator?.setNeedsDisplay()
        }
        // A photo refused at once (the status line says why) keeps everything in the composer.
        guard sent else { return }
        field.text = ""
        files = []
        draftID = DraftStore.Saved.newID()
        typing = true
        remerge()
    }

    private func openSelected() {
        guard merged.indices.contains(selection) else { return }
        let chosen = merged[selection].message
        if let shared = chosen.sharedPostID {
            context.navigator?.push(
                ThreadScreen(context: context, mediaID: shared, width: width, height: height))
        } else {
            context.navigator?.push(
                ProfileScreen(context: context, userID: chosen.sender.id, width: width, height: height))
        }
    }

    /// Retries or deletes the chosen message, when it was not sent.
    private func changeSelected(retry: Bool) {
        guard merged.indices.contains(selection), let token = merged[selection].status.token else {
            message = retry ? "this message was sent" : "only a message not sent can be deleted here"
            return
        }
        let failed = if case .failed = merged[selection].status { true } else { false }
        let change = ChangeSummary(
            token: token.rawValue, title: "message", state: failed ? "failed" : "waiting", tries: 0,
            failed: failed)
        if retry {
            context.actions?.retry(change)
        } else if failed {
            context.actions?.discard(change)
        } else {
            message = "it is still being sent; a message is deleted only once it failed"
            return
        }
        remerge()
    }

    // MARK: Drawing

    /// How long apart two messages of one sender may be and still share a header, in seconds.
    package static let headerGap: TimeInterval = 5 * 60

    /// Whether message `index` opens with who sent it and when: the first of a run of one
    /// sender's messages, or the first after a pause of more than ``headerGap``.
    func showsHeader(at index: Int) -> Bool {
        guard index > 0, merged.indices.contains(index) else { return true }
        let (previous, row) = (merged[index - 1], merged[index])
        guard isMine(previous) == isMine(row),
            previous.message.sender.id == row.message.sender.id || isMine(row)
        else { return true }
        // Messages not on the server yet have no time of their own: they follow the ones before.
        guard row.status == .server, previous.status == .server else { return false }
        return row.message.createdAt.timeIntervalSince(previous.message.createdAt) > Self.headerGap
    }

    /// The number in a message id (`dm12`: 12), the server's order.
    nonisolated static func number(_ id: MessageID) -> Int64 {
        Int64(id.rawValue.drop { !$0.isNumber }) ?? 0
    }

    private func isMine(_ row: MergedMessage) -> Bool {
        row.message.sender.id == context.viewer?.id || row.status != .server
    }

    /// The lines of message `index` at `width`: who and when (at the start of a run), the text, a
    /// shared post as a card, its photos, and where it stands when not on the server yet. The
    /// chosen message is marked on its first line.
    func lines(at index: Int, selected: Bool, width: Int) -> [StyledLine] {
        let style = context.style
        let row = merged[index]
        let item = row.message
        var lines: [StyledLine] = []
        if showsHeader(at: index) {
            var header = StyledLine(" ")
            if isMine(row) {
                header.append(inbox.direct.ownMark, style: style.accent)
            } else {
                header.append(item.sender.displayName, style: style.strong)
            }
            if row.status == .server {
                header.append(" · " + context.age(of: item.createdAt), style: style.secondary)
            }
            lines.append(TextLayout.truncate(header, width: width))
        }
        let body = lines.count
        let indent = "  "
        let room = max(width - indent.count, 1)
        for line in TextLayout.wrap(item.text, width: room) where !item.text.isEmpty {
            lines.append(StyledLine(indent + line, style: style.text))
        }
        if let shared = item.sharedPostID {
            let post = item.sharedPost
            let words =
                post.map { post in
                    let first =
                        post.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? post.kind.name
                    return "@\(post.author.handle): \(first)"
                } ?? "a post (\(shared.rawValue))"
            lines.append(
                TextLayout.truncate(
                    StyledLine(indent + "┃ " + inbox.direct.glyph + " " + words, style: style.accent),
                    width: width))
        }
        for attachment in item.attachments {
            guard case .photo(let photo) = attachment else {
                // Anything else a message may carry one day is named, never a crash.
                lines.append(StyledLine(indent + "▣ " + attachment.typeName, style: style.secondary))
                continue
            }
            let art = PostRenderer.photoArt(
                photo, width: min(max(width - indent.count, 1), Self.photoColumns), maxLines: Self.photoLines,
                presentation: context.presentation)
            lines += art.map { StyledLine(indent) + $0 }
            if let alt = photo.altText, !alt.isEmpty {
                lines.append(
                    TextLayout.truncate(StyledLine(indent + "▣ " + alt, style: style.secondary), width: width)
                )
            }
        }
        switch row.status {
        case .server: break
        case .pending: lines.append(StyledLine(indent + "sending…", style: style.pending))
        case .failed(_, let reason):
            lines.append(
                TextLayout.truncate(
                    // The keys first: a long reason is cut at the screen's edge, never the keys.
                    StyledLine(indent + "✕ not sent (r retry, x delete): \(reason)", style: style.failure),
                    width: width))
        }
        if index == seenIndex { lines.append(StyledLine(indent + "seen", style: style.secondary)) }
        // Every line under the header starts with the indent: the chosen one's first space
        // becomes the mark.
        if selected, lines.indices.contains(body), var first = lines[body].spans.first,
            first.text.hasPrefix(" ")
        {
            first.text.removeFirst()
            lines[body].spans[0] = first
            lines[body] = StyledLine("▌", style: style.accent) + lines[body]
        }
        return lines
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        width = rect.width
        height = rect.height
        let composerHeight = min(field.height(forWidth: max(rect.width - 2, 1)), Self.composerLines)
        let photosHeight = files.isEmpty ? 0 : 1
        let listHeight = max(rect.height - composerHeight - photosHeight - 1, 0)
        // The messages, bottom-up from the chosen one (or the newest): the lines that fit.
        var shown: [StyledLine] = []
        if merged.isEmpty {
            let words = loading ? "Loading…" : "No messages yet. Say hello."
            shown = [StyledLine("  " + words, style: style.secondary)]
        } else {
            var index = typing ? merged.count - 1 : min(selection, merged.count - 1)
            // Below the chosen message, the newer ones that still fit under it.
            var below: [StyledLine] = []
            if !typing {
                var next = index + 1
                while next < merged.count {
                    let more = lines(at: next, selected: false, width: rect.width)
                    if below.count + more.count > listHeight / 2 { break }
                    below += more
                    next += 1
                }
            }
            shown = below
            while index >= 0, shown.count < listHeight {
                shown = lines(at: index, selected: !typing && index == selection, width: rect.width) + shown
                index -= 1
            }
            if index < 0, olderCursor != nil, shown.count < listHeight {
                shown.insert(StyledLine("  ↑ older messages", style: style.secondary), at: 0)
            }
        }
        // The newest lines at the bottom of the list: cut from the top when there are too many.
        if shown.count > listHeight { shown.removeFirst(shown.count - listHeight) }
        let firstRow = rect.y + listHeight - shown.count
        for (offset, line) in shown.enumerated() {
            buffer.putTruncated(line, in: Rect(x: rect.x, y: firstRow + offset, width: rect.width, height: 1))
        }
        let separatorRow = rect.y + listHeight
        buffer.put(
            String(repeating: "─", count: max(rect.width, 0)), style: style.separator, x: rect.x,
            y: separatorRow,
            clip: rect)
        if !files.isEmpty {
            // The photos going with the next message, by name.
            let names = files.map { "▣ " + ($0.path as NSString).lastPathComponent }.joined(separator: "  ")
            buffer.putTruncated(
                StyledLine("  " + names + "  (ctrl-x removes the last)", style: style.secondary),
                in: Rect(x: rect.x, y: separatorRow + 1, width: rect.width, height: 1))
        }
        field.style = style.text
        let fieldRow = separatorRow + 1 + photosHeight
        let fieldRect = Rect(
            x: rect.x + 2, y: fieldRow, width: max(rect.width - 2, 1), height: composerHeight)
        buffer.put(typing ? "›" : " ", style: style.accent, x: rect.x, y: fieldRow, clip: rect)
        let cursor = field.draw(into: &buffer, in: fieldRect)
        return typing ? cursor : nil
    }

    package func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
