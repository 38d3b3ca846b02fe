import Composition
import MediaModel
import Sockets
import TerminalUI

/// Writing a post or a reply, with the rules of the `composerPolicy` socket: one app requires a
/// photo (picked from the sample photos), the other requires text up to its limit.
///
/// Keys: typed text edits the post, enter posts it, tab moves between the text and the photo
/// picker (left/right choose, space picks; enter posts). A paste is text, its line breaks
/// included. A new post's draft is kept (`DraftStore`) as it is written: esc leaves it for the
/// home feed, and only ctrl-d twice discards it. A reply's esc asks once before dropping typed
/// text. The text always has the focus when the composer appears.
@MainActor
package final class ComposerScreen: AppScreen {
    private let context: AppContext
    private let field: TextField
    /// The post being answered, for a reply.
    package let replyingTo: Media?
    private var pickerFocused = false
    private var pickerIndex = 0
    /// The picked photo's index in `SamplePhotos.all`.
    package private(set) var pickedPhoto: Int?
    private var message: String?
    /// The key that asks to confirm dropping the text, pressed once: a second press drops it.
    private var armed: Command?

    /// Makes a composer for a new post (`replyingTo` nil), with the kept draft, or a reply.
    package init(context: AppContext, replyingTo: Media?) {
        self.context = context
        self.replyingTo = replyingTo
        let placeholder = replyingTo.map { "Reply to @\($0.author.handle)…" } ?? "What's new?"
        field = TextField(placeholder: placeholder, mode: .wrapped(maxLines: 6), limit: nil)
        if replyingTo == nil, let kept = context.drafts?.load() {
            field.text = kept.text
            pickedPhoto = kept.photo.flatMap { SamplePhotos.all.indices.contains($0) ? $0 : nil }
        }
    }

    /// Whether this draft may carry a photo: a post may, a reply only when replies are posts.
    private var takesPhotos: Bool {
        replyingTo == nil || context.registry[.replyModel].repliesTakePhotos
    }

    package var title: String {
        let policy = context.registry[.composerPolicy]
        guard replyingTo != nil else { return "New \(policy.noun)" }
        let noun = context.registry[.replyModel].noun
        return noun.prefix(1).uppercased() + noun.dropFirst()
    }

    package var capturesText: Bool { !pickerFocused }

    package var status: String? { message }

    /// The text typed so far.
    package var text: String { field.text }

    /// The text takes the focus whenever the composer shows.
    package func appear() {
        pickerFocused = false
    }

    /// Keeps a new post's draft as it stands.
    private func keepDraft() {
        guard replyingTo == nil else { return }
        context.drafts?.save(DraftStore.Saved(text: field.text, photo: pickedPhoto))
    }

    // MARK: Keys

    /// What the composer's keys do.
    enum Command: Sendable {
        case previousPhoto, nextPhoto, pick, switchFocus, submit, cancel, discard
    }

    /// The composer's keys now: the one place to add one. While the text has the focus, every
    /// key not listed here is the text field's (typing, editing, moving the cursor).
    var keys: KeyTable<Command> {
        let cancel =
            replyingTo == nil
            ? KeyTable.Row([.escape], Command.cancel, does: "back", footer: "esc")
            : KeyTable.Row([.escape], Command.cancel, does: "cancel", footer: "esc")
        let discard = KeyTable.Row(
            [.control("d")], Command.discard, label: "ctrl-d", does: "discard the draft (press twice)")
        guard takesPhotos else {
            return KeyTable([
                .note("type"), .init([.enter], .submit, does: "send", footer: "enter"), cancel, discard,
            ])
        }
        guard pickerFocused else {
            return KeyTable([
                .note("type"), .init([.enter], .submit, does: "post", footer: "enter"),
                .init([.tab, .backTab], .switchFocus, label: "tab", does: "photos", footer: "tab"), cancel,
                discard,
            ])
        }
        return KeyTable([
            .init(
                [
                    (.left, .previousPhoto), (.right, .nextPhoto), (.character("h"), .previousPhoto),
                    (.character("l"), .nextPhoto),
                ], label: "← →  h l", does: "choose", footer: "←/→"),
            .init([.character(" ")], .pick, does: "pick", footer: "space"),
            .init([.tab, .backTab], .switchFocus, label: "tab", does: "back to text", footer: "tab"),
            .init([.enter], .submit, does: "post", footer: "enter"),
            cancel, discard,
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        let wasArmed = armed
        armed = nil
        guard let command = keys.command(for: key) else {
            guard capturesText else { return false }
            let handled = field.handle(.key(key))
            keepDraft()
            return handled
        }
        switch command {
        case .cancel:
            if replyingTo == nil {
                // The draft stays; the person goes back to the feed.
                keepDraft()
                context.navigator?.openTab(.home)
                if !field.text.isEmpty || pickedPhoto != nil {
                    context.navigator?.showMessage("draft kept: it is here when you come back")
                }
            } else if field.text.isEmpty || wasArmed == .cancel {
                context.navigator?.pop()
            } else {
                armed = .cancel
                message = "esc again drops this reply's text"
            }
        case .discard:
            if wasArmed == .discard {
                clear()
                message = "draft discarded"
            } else {
                armed = .discard
                message = "ctrl-d again discards the draft"
            }
        case .switchFocus: pickerFocused.toggle()
        case .submit: submit()
        case .previousPhoto: pickerIndex = max(pickerIndex - 1, 0)
        case .nextPhoto: pickerIndex = min(pickerIndex + 1, SamplePhotos.all.count - 1)
        case .pick:
            pickedPhoto = pickedPhoto == pickerIndex ? nil : pickerIndex
            keepDraft()
        }
        return true
    }

    /// A paste goes into the text where the cursor is, line breaks and all (the text wraps and
    /// keeps them; only a typed enter posts). With the photo picker focused it is ignored.
    package func paste(_ text: String) -> Bool {
        guard capturesText else { return false }
        message = nil
        let handled = field.handle(.paste(text))
        keepDraft()
        return handled
    }

    /// Checks the draft against the composer policy and hands it over; on a rejection the
    /// message says why and nothing is lost.
    func submit() {
        let policy = context.registry[.composerPolicy]
        let photo = pickedPhoto.map { SamplePhotos.all[$0].photo }
        let attachments = photo == nil ? 0 : 1
        let verdict =
            replyingTo == nil
            ? policy.check(text: field.text, attachmentCount: attachments)
            : context.registry[.replyModel].check(
                reply: field.text, attachmentCount: attachments, policy: policy)
        switch verdict {
        case .rejected(let reason):
            message = "✕ " + reason
        case .ready:
            let draft = Draft(text: field.text, photo: photo, replyingTo: replyingTo)
            guard let actions = context.actions else {
                message = "✕ posting is not available in this build"
                return
            }
            actions.submit(draft)
            clear()
            context.navigator?.pop()
            if replyingTo == nil { context.navigator?.openTab(.home) }
        }
    }

    private func clear() {
        field.text = ""
        pickedPhoto = nil
        pickerFocused = false
        if replyingTo == nil { context.drafts?.remove() }
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        let style = context.style
        let policy = context.registry[.composerPolicy]
        var y = rect.y
        if let replyingTo {
            let line =
                StyledLine("replying to @\(replyingTo.author.handle): ", style: style.secondary)
                + StyledLine(replyingTo.text, style: style.secondary)
            buffer.putTruncated(line, in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
            y += 2
        }
        let fieldRect = Rect(
            x: rect.x + 1, y: y, width: rect.width - 2, height: min(6, max(rect.maxY - y - 6, 1)))
        let cursor = field.draw(into: &buffer, in: fieldRect)
        y = fieldRect.maxY + 1
        let count = field.characterCount
        let over = count > policy.textLimit
        buffer.putTruncated(
            StyledLine("\(count)/\(policy.textLimit)", style: over ? style.failure : style.secondary),
            in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
        y += 1
        guard takesPhotos else { return cursor }
        let requirement = policy.media == .required ? "a photo is required" : "a photo is optional"
        var picker = StyledLine(
            "photo (\(requirement)): ", style: pickerFocused ? style.accent : style.secondary)
        for (index, sample) in SamplePhotos.all.enumerated() {
            let picked = pickedPhoto == index
            let label = (picked ? "[x] " : "[ ] ") + sample.name
            let highlighted = pickerFocused && pickerIndex == index
            picker.append(
                highlighted ? "›" + label + "‹" : " " + label + " ", style: picked ? style.accent : style.text
            )
        }
        buffer.putTruncated(picker, in: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1))
        y += 1
        if let pickedPhoto, y < rect.maxY {
            let art = PostRenderer.art(
                SamplePhotos.all[pickedPhoto].photo.pixels, width: 24, maxLines: min(6, rect.maxY - y),
                presentation: context.presentation)
            for (offset, line) in art.enumerated() where y + offset < rect.maxY {
                _ = buffer.put(line, x: rect.x + 2, y: y + offset, clip: rect)
            }
        }
        return pickerFocused ? nil : cursor
    }

    package func resize(width: Int, height: Int) {}
}
