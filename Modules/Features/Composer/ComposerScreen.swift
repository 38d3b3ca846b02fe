import Composition
import MediaModel
import Sockets
import TerminalUI

/// Writing a post or a reply, with the rules of the `composerPolicy` socket: one app requires a
/// photo (picked from the sample photos), the other requires text up to its limit.
///
/// Keys: typed text edits the post, enter posts it, esc cancels, tab moves between the text and
/// the photo picker (left/right choose, space picks; enter posts). A paste is text, its line
/// breaks included.
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

    /// Makes a composer for a new post (`replyingTo` nil) or a reply.
    package init(context: AppContext, replyingTo: Media?) {
        self.context = context
        self.replyingTo = replyingTo
        let placeholder = replyingTo.map { "Reply to @\($0.author.handle)…" } ?? "What's new?"
        field = TextField(placeholder: placeholder, mode: .wrapped(maxLines: 6), limit: nil)
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

    package func appear() {}

    // MARK: Keys

    /// What the composer's keys do.
    enum Command: Sendable {
        case previousPhoto, nextPhoto, pick, switchFocus, submit, cancel
    }

    /// The composer's keys now: the one place to add one. While the text has the focus, every
    /// key not listed here is the text field's (typing, editing, moving the cursor).
    var keys: KeyTable<Command> {
        let cancel = KeyTable.Row([.escape], Command.cancel, does: "cancel", footer: "esc")
        guard takesPhotos else {
            return KeyTable([.note("type"), .init([.enter], .submit, does: "send", footer: "enter"), cancel])
        }
        guard pickerFocused else {
            return KeyTable([
                .note("type"), .init([.enter], .submit, does: "post", footer: "enter"),
                .init([.tab, .backTab], .switchFocus, label: "tab", does: "photos", footer: "tab"), cancel,
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
            cancel,
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        message = nil
        guard let command = keys.command(for: key) else {
            return capturesText && field.handle(.key(key))
        }
        switch command {
        case .cancel:
            context.navigator?.pop()
            if replyingTo == nil { clear() }
        case .switchFocus: pickerFocused.toggle()
        case .submit: submit()
        case .previousPhoto: pickerIndex = max(pickerIndex - 1, 0)
        case .nextPhoto: pickerIndex = min(pickerIndex + 1, SamplePhotos.all.count - 1)
        case .pick: pickedPhoto = pickedPhoto == pickerIndex ? nil : pickerIndex
        }
        return true
    }

    /// A paste goes into the text where the cursor is, line breaks and all (the text wraps and
    /// keeps them; only a typed enter posts). With the photo picker focused it is ignored.
    package func paste(_ text: String) -> Bool {
        guard capturesText else { return false }
        message = nil
        return field.handle(.paste(text))
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
